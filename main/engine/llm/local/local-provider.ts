// A local GGUF model served by a child process (worker.mjs). The parent owns the queue of in-flight
// requests: when the child dies (native crash, OOM, killed) it starts a new one and re-sends what was
// in flight, a bounded number of times, so callers only see a slower answer.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultModelTuning } from './tuning.js';
import {
  LlmAbortError,
  LlmTimeoutError,
  type GenerateRequest,
  type GenerateResult,
  type LlmProvider,
} from '../provider.js';

export interface LocalLlamaOptions {
  modelPath: string;
  /** Defaults to the file name without `.gguf`. */
  id?: string;
  /** llama.cpp threads. More threads than free cores is drastically slower: the default is half the cores (tuning.ts). */
  threads?: number;
  /** Parallel context sequences (requests generated at the same time). */
  sequences?: number;
  /** Tokens per sequence; defaults to min(training context, 4096). */
  contextSize?: number;
  batchSize?: number;
  /** 'auto' uses the model's chat template when it has one, plain completion otherwise. */
  mode?: 'auto' | 'completion' | 'chat';
  /** How many times one request is re-sent after the model process died under it. */
  maxRetries?: number;
  /** Applied when a request sets no `timeoutMs`. */
  defaultTimeoutMs?: number;
}

export interface LocalModelInfo {
  contextSize: number;
  trainContextSize: number;
  sequences: number;
  threads: number;
  mode: 'chat' | 'completion';
  /** node-llama-cpp's chat wrapper in use (e.g. 'Gemma'); null in completion mode. */
  chatWrapper: string | null;
}

interface Pending {
  id: number;
  wire: WireRequest;
  attempts: number;
  /** The process the request was last sent to, so a restart never sends it twice to one process. */
  sentTo?: ChildProcess;
  emitted: string;
  received: string;
  onToken?: (t: string) => void;
  resolve: (r: GenerateResult) => void;
  reject: (e: Error) => void;
  cleanup: () => void;
}

/** What crosses to the model process: the request minus what stays in this process (signal, timer, callback). */
type WireRequest = Omit<GenerateRequest, 'signal' | 'timeoutMs' | 'onToken'> & { stream: boolean };

type WorkerMessage =
  | { type: 'ready'; info: LocalModelInfo }
  | { type: 'fatal'; message: string }
  | { type: 'token'; id: number; text: string }
  | { type: 'done'; id: number; text: string; tokens: number }
  | { type: 'error'; id: number; message: string; aborted: boolean };

const WORKER = fileURLToPath(new URL('./worker.mjs', import.meta.url));

export class LocalLlamaProvider implements LlmProvider {
  readonly id: string;
  /** How many times the model process has been restarted after dying. */
  restarts = 0;
  private child: ChildProcess | undefined;
  private starting: Promise<void> | undefined;
  private modelInfo: LocalModelInfo | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  private constructor(private readonly opts: Required<Omit<LocalLlamaOptions, 'id' | 'contextSize' | 'batchSize' | 'defaultTimeoutMs'>> & LocalLlamaOptions) {
    this.id = opts.id ?? basename(opts.modelPath).replace(/\.gguf$/i, '');
  }

  /** Starts the model process and waits until the model is loaded. */
  static async open(options: LocalLlamaOptions): Promise<LocalLlamaProvider> {
    if (!existsSync(options.modelPath)) throw new Error(`Model file not found: ${options.modelPath}`);
    const p = new LocalLlamaProvider({ ...defaultModelTuning(), mode: 'auto', maxRetries: 2, ...options });
    await p.ensureChild();
    return p;
  }

  get info(): LocalModelInfo | undefined {
    return this.modelInfo;
  }

  /** The model process id (tests kill it to prove a crash is survived). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  generate(req: GenerateRequest): Promise<GenerateResult> {
    if (this.closed) return Promise.reject(new Error('The model has been closed.'));
    if (req.signal?.aborted) return Promise.reject(new LlmAbortError(req.signal.reason));
    const id = this.nextId++;
    const wire: WireRequest = {
      system: req.system,
      prompt: req.prompt,
      maxTokens: req.maxTokens,
      temperature: req.temperature,
      seed: req.seed,
      jsonSchema: req.jsonSchema,
      stop: req.stop,
      responsePrefix: req.responsePrefix,
      stopOnLoop: req.stopOnLoop,
      stream: Boolean(req.onToken),
    };
    return new Promise<GenerateResult>((resolve, reject) => {
      const timeoutMs = req.timeoutMs ?? this.opts.defaultTimeoutMs;
      const timer = timeoutMs ? setTimeout(() => this.cancel(id, new LlmTimeoutError(timeoutMs)), timeoutMs) : undefined;
      const onAbort = () => this.cancel(id, new LlmAbortError(req.signal?.reason));
      req.signal?.addEventListener('abort', onAbort, { once: true });
      const cleanup = () => {
        if (timer) clearTimeout(timer);
        req.signal?.removeEventListener('abort', onAbort);
      };
      this.pending.set(id, { id, wire, attempts: 0, emitted: '', received: '', onToken: req.onToken, resolve, reject, cleanup });
      this.ensureChild()
        .then(() => this.dispatch(id))
        .catch((err: Error) => this.settle(id, err));
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const id of [...this.pending.keys()]) this.settle(id, new Error('The model was closed.'));
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      const kill = setTimeout(() => child.kill('SIGKILL'), 3000);
      child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      if (child.connected) child.send({ type: 'close' });
      else child.kill('SIGKILL');
    });
  }

  private dispatch(id: number): void {
    const p = this.pending.get(id);
    if (!p || !this.child?.connected || p.sentTo === this.child) return;
    p.sentTo = this.child;
    p.attempts++;
    p.received = '';
    this.child.send({ type: 'generate', id, req: p.wire });
  }

  private cancel(id: number, err: Error): void {
    if (!this.pending.has(id)) return;
    if (this.child?.connected) this.child.send({ type: 'abort', id });
    this.settle(id, err);
  }

  private settle(id: number, result: Error | GenerateResult): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    p.cleanup();
    if (result instanceof Error) p.reject(result);
    else p.resolve(result);
  }

  private ensureChild(): Promise<void> {
    if (this.child?.connected) return Promise.resolve();
    if (!this.starting) {
      this.starting = this.spawn().finally(() => {
        this.starting = undefined;
      });
    }
    return this.starting;
  }

  private spawn(): Promise<void> {
    // execArgv is cleared so the child does not inherit a TypeScript loader or test-runner flags.
    const child = fork(WORKER, [], { execArgv: [], serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child = child;
    return new Promise<void>((resolve, reject) => {
      let ready = false;
      child.on('message', (msg: WorkerMessage) => {
        if (msg.type === 'ready') {
          ready = true;
          this.modelInfo = msg.info;
          resolve();
        } else if (msg.type === 'fatal') {
          reject(new Error(`The model could not be loaded: ${msg.message}`));
        } else this.onMessage(msg);
      });
      child.on('exit', (code, signal) => {
        if (!ready) reject(new Error(`The model process exited while loading (code ${code}, signal ${signal}).`));
        if (this.child === child) this.onChildDied(code, signal);
      });
      child.send({
        type: 'init',
        opts: {
          modelPath: this.opts.modelPath,
          threads: this.opts.threads,
          sequences: this.opts.sequences,
          contextSize: this.opts.contextSize,
          batchSize: this.opts.batchSize,
          mode: this.opts.mode,
        },
      });
    });
  }

  private onMessage(msg: WorkerMessage): void {
    if (msg.type === 'token') {
      const p = this.pending.get(msg.id);
      if (!p?.onToken) return;
      // After a restart the request is generated again from the start: only pass on what is new.
      p.received += msg.text;
      if (p.received.length > p.emitted.length) {
        const fresh = p.received.slice(p.emitted.length);
        p.emitted = p.received;
        p.onToken(fresh);
      }
    } else if (msg.type === 'done') {
      this.settle(msg.id, { text: msg.text, tokens: msg.tokens });
    } else if (msg.type === 'error') {
      this.settle(msg.id, msg.aborted ? new LlmAbortError() : new Error(`The model failed: ${msg.message}`));
    }
  }

  private onChildDied(code: number | null, signal: NodeJS.Signals | null): void {
    this.child = undefined;
    if (this.closed) return;
    for (const p of [...this.pending.values()]) {
      if (p.attempts > this.opts.maxRetries) {
        this.settle(p.id, new Error(`The model process died (code ${code}, signal ${signal}) ${p.attempts} times on this request.`));
      }
    }
    if (this.pending.size === 0) return;
    this.restarts++;
    this.ensureChild()
      .then(() => {
        for (const id of this.pending.keys()) this.dispatch(id);
      })
      .catch((err: Error) => {
        for (const id of [...this.pending.keys()]) this.settle(id, err);
      });
  }
}
