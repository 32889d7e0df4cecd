// bench:llm — how much of the model's raw speed the LLM indexing pipeline keeps, and what parallel
// sequences buy. All figures come from one run on one machine, so they compare like with like:
//  - raw plain: in-process node-llama-cpp, one sequence, free text;
//  - raw replay: in-process, one sequence, replaying exactly the requests the pipeline made (same
//    prompts, grammars, token limits) — the pipeline's work without the pipeline;
//  - pipeline: extractWithModel over the notes through the child-process provider, one sequence;
//  - parallel: the recorded requests fired at once through the provider with N sequences.
import type { LlamaGrammar } from 'node-llama-cpp';
import type { Embedder } from '../engine/embed/embedder.js';
import { extractWithModel } from '../engine/extract/llm/extract.js';
import type { ParsedNote } from '../engine/types.js';
import { LocalLlamaProvider } from '../engine/llm/local/local-provider.js';
import type { GenerateRequest, LlmProvider } from '../engine/llm/provider.js';

export interface LlmBenchOptions {
  modelPath: string;
  notes: ParsedNote[];
  embedder: Embedder;
  threads?: number;
  sequences?: number[];
  /** Alternating measurement rounds; the best of each measurement is reported. */
  rounds?: number;
  onStep?: (step: string) => void;
}

export interface Speed {
  tokens: number;
  seconds: number;
  tokensPerSecond: number;
}

export interface LlmBenchReport {
  model: string;
  threads: number;
  notes: number;
  requests: number;
  rounds: number;
  rawPlain: Speed;
  rawReplay: Speed;
  pipeline: Speed & { calls: number; failures: number };
  /** pipeline / raw replay: the pipeline's overhead on the same work (target ≥ 0.8). */
  ratioVsReplay: number;
  /** pipeline / raw plain: includes what grammars and prompt evaluation cost. */
  ratioVsPlain: number;
  parallel: (Speed & { sequences: number; speedup: number })[];
}

const speed = (tokens: number, seconds: number): Speed => ({ tokens, seconds, tokensPerSecond: seconds > 0 ? tokens / seconds : 0 });

export async function runLlmBench(opts: LlmBenchOptions): Promise<LlmBenchReport> {
  const threads = opts.threads ?? 1;
  const step = opts.onStep ?? (() => {});

  const rounds = Math.max(1, opts.rounds ?? 2);
  const recorded: GenerateRequest[] = [];
  const provider = await LocalLlamaProvider.open({ modelPath: opts.modelPath, threads, sequences: 1 });
  const recorder: LlmProvider = {
    id: provider.id,
    close: () => provider.close(),
    generate: (r) => {
      recorded.push({ ...r, signal: undefined, onToken: undefined });
      return provider.generate(r);
    },
  };
  // Loaded here, not with the module: node-llama-cpp takes ~0.3 s to load, which a bundle of the CLI
  // would otherwise pay on every start.
  const { getLlama, LlamaCompletion, LlamaLogLevel } = await import('node-llama-cpp');
  const llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath: opts.modelPath });
  const context = await model.createContext({ sequences: 1, threads, contextSize: Math.min(model.trainContextSize, 2048) });
  const completion = new LlamaCompletion({ contextSequence: context.getSequence() });
  const grammars = new Map<string, LlamaGrammar>();
  const generateRaw = async (r: GenerateRequest): Promise<number> => {
    let grammar: LlamaGrammar | undefined;
    if (r.jsonSchema) {
      const key = JSON.stringify(r.jsonSchema);
      grammar = grammars.get(key) ?? (await llama.createGrammarForJsonSchema(r.jsonSchema as never));
      grammars.set(key, grammar);
    }
    let n = 0;
    await completion.generateCompletion(r.system ? `${r.system}\n\n${r.prompt}` : r.prompt, {
      maxTokens: r.maxTokens,
      temperature: r.temperature ?? 0,
      seed: r.seed,
      grammar,
      onToken: (t) => {
        n += t.length;
      },
    });
    return n;
  };
  // Warm-up so model loading and first-call costs are billed to neither side.
  await provider.generate({ prompt: 'Once upon a time', maxTokens: 8 });
  await generateRaw({ prompt: 'Once upon a time', maxTokens: 8 });

  // The machine is shared: rounds alternate the three measurements and the best of each is kept,
  // so a burst of load elsewhere does not decide the ratio.
  let pipeline: LlmBenchReport['pipeline'] | undefined;
  let rawPlain: Speed | undefined;
  let rawReplay: Speed | undefined;
  const best = <T extends Speed>(a: T | undefined, b: T) => (!a || b.tokensPerSecond > a.tokensPerSecond ? b : a);
  for (let round = 1; round <= rounds; round++) {
    step(`round ${round}/${rounds}: pipeline (extractWithModel through the model process, 1 sequence)`);
    recorded.length = 0;
    let pipeTokens = 0;
    let calls = 0;
    let failures = 0;
    const t0 = performance.now();
    for (const note of opts.notes) {
      const ex = await extractWithModel(note, recorder, opts.embedder, { concurrency: 1 });
      pipeTokens += ex.stats.tokens;
      calls += ex.stats.calls;
      failures += ex.stats.failures.length;
    }
    pipeline = best(pipeline, { ...speed(pipeTokens, (performance.now() - t0) / 1000), calls, failures });

    step(`round ${round}/${rounds}: raw in-process generation (plain, and replaying the pipeline's requests)`);
    let t = performance.now();
    let plainTokens = 0;
    for (const p of ['Once upon a time', 'Tom and Lily went', 'The little dog', 'One day, a bird']) plainTokens += await generateRaw({ prompt: p, maxTokens: 256 });
    rawPlain = best(rawPlain, speed(plainTokens, (performance.now() - t) / 1000));
    t = performance.now();
    let replayTokens = 0;
    for (const r of recorded) replayTokens += await generateRaw(r);
    rawReplay = best(rawReplay, speed(replayTokens, (performance.now() - t) / 1000));
  }
  await provider.close();
  completion.dispose();
  await context.dispose();
  await model.dispose();

  const parallel: LlmBenchReport['parallel'] = [];
  for (const n of opts.sequences ?? [1, 2, 4]) {
    step(`parallel: ${recorded.length} requests at once on ${n} sequence(s)`);
    const p = await LocalLlamaProvider.open({ modelPath: opts.modelPath, threads, sequences: n });
    await p.generate({ prompt: 'Once upon a time', maxTokens: 8 });
    const start = performance.now();
    const results = await Promise.all(recorded.map((r) => p.generate(r)));
    const s = speed(
      results.reduce((sum, r) => sum + r.tokens, 0),
      (performance.now() - start) / 1000,
    );
    await p.close();
    parallel.push({ ...s, sequences: n, speedup: 1 });
  }
  const base = parallel[0]?.tokensPerSecond ?? 0;
  for (const p of parallel) p.speedup = base > 0 ? p.tokensPerSecond / base : 0;

  return {
    model: provider.id,
    threads,
    notes: opts.notes.length,
    requests: recorded.length,
    rounds,
    rawPlain: rawPlain!,
    rawReplay: rawReplay!,
    pipeline: pipeline!,
    ratioVsReplay: rawReplay!.tokensPerSecond > 0 ? pipeline!.tokensPerSecond / rawReplay!.tokensPerSecond : 0,
    ratioVsPlain: rawPlain!.tokensPerSecond > 0 ? pipeline!.tokensPerSecond / rawPlain!.tokensPerSecond : 0,
    parallel,
  };
}
