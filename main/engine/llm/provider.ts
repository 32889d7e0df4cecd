// The one interface every language model sits behind: a local GGUF in a child process, or an
// OpenAI-compatible server. Callers never know which.

export interface GenerateRequest {
  /** Instructions; providers put them where the model expects them (chat system turn or a prompt prefix). */
  system?: string;
  prompt: string;
  maxTokens: number;
  temperature?: number;
  /** Sampling seed: with the same prompt and seed a local model writes the same text (reproducible extraction). */
  seed?: number;
  /** A JSON schema the output must follow; local models enforce it with a grammar. */
  jsonSchema?: object;
  /** Generation ends when the output reaches one of these strings (not included in the text). */
  stop?: string[];
  /**
   * The reply is forced to begin with this text (included in the returned text, not counted as generated
   * tokens): it sets a base model on the asked format. Servers that cannot prefill get it as the last line
   * of the prompt instead.
   */
  responsePrefix?: string;
  /** Stop as soon as the reply starts looping (a repeated line, a run of one character); the loop is cut off. */
  stopOnLoop?: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Streamed text pieces as they are generated. */
  onToken?: (t: string) => void;
}

export interface GenerateResult {
  text: string;
  /** Generated tokens (not prompt tokens). */
  tokens: number;
}

export interface LlmProvider {
  /** Stable model id; part of the extractor key, so a model change re-extracts. */
  id: string;
  generate(req: GenerateRequest): Promise<GenerateResult>;
  close(): Promise<void>;
}

/** Thrown when a call exceeds its `timeoutMs`. */
export class LlmTimeoutError extends Error {
  constructor(ms: number) {
    super(`The model did not answer within ${ms} ms.`);
    this.name = 'LlmTimeoutError';
  }
}

/** Thrown when the caller's AbortSignal fires. */
export class LlmAbortError extends Error {
  constructor(reason?: unknown) {
    super(reason instanceof Error ? reason.message : 'The model call was cancelled.');
    this.name = 'AbortError';
  }
}

export function isAbortError(err: unknown): boolean {
  return err instanceof Error && err.name === 'AbortError';
}
