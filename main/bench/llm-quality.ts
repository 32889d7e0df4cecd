// bench-llm --quality: what the model pass makes and what it costs, per extraction strategy, over the
// same notes in one run (so strategies compare like with like on a shared machine). Figures:
// structural validity, consistency pass rate per try, FCI groundedness (ROUGE-L of each FCI against the
// lines it cites; share citing lines outside its chunk), mind-map depth/breadth against fast mode,
// triples per piece and the share whose two ends occur in the note, tokens per note, the share spent on
// tries that were thrown away, notes per minute and peak memory.
import { readFileSync } from 'node:fs';
import type { Embedder } from '../engine/embed/embedder.js';
import { rougeL } from '../engine/extract/llm/consistency.js';
import { extractWithModel, type LlmExtraction } from '../engine/extract/llm/extract.js';
import { extractFast } from '../engine/extract/fast/index.js';
import type { Extraction, MindMapNode, ParsedNote } from '../engine/types.js';
import { LocalLlamaProvider } from '../engine/llm/local/local-provider.js';
import type { ExtractStrategy } from '../engine/llm/prompts/index.js';

export interface QualityNote {
  note: ParsedNote;
  /** The note's file text, to read the lines an item cites. */
  source: string;
}

export interface QualityOptions {
  modelPath: string;
  notes: QualityNote[];
  embedder: Embedder;
  strategies: ExtractStrategy[];
  threads?: number;
  sequences?: number;
  onStep?: (s: string) => void;
  /** Each strategy's figures as soon as they are measured (a long run still leaves results if stopped). */
  onStrategy?: (f: StrategyFigures) => void;
}

export interface ShapeFigures {
  fcisPerNote: number;
  /** Mean ROUGE-L F of each FCI against the text of the lines it cites. */
  groundedness: number;
  /** Share of FCIs with ROUGE-L ≥ 0.15 (PG-RAG's threshold) against their cited lines. */
  groundedShare: number;
  /** Share of FCIs whose cited lines fall outside the chunk they point to. */
  outsideChunkShare: number;
  mindMapDepth: number;
  /** Routes under the topic, per note. */
  mindMapBreadth: number;
  factsPerRoute: number;
  triplesPerPiece: number;
  /** Share of triples whose subject and object both occur in the note's text. */
  triplesBothEndsInNote: number;
}

export interface StrategyFigures extends ShapeFigures {
  strategy: ExtractStrategy | 'fast';
  notes: number;
  pieces: number;
  calls: number;
  tokensPerNote: number;
  /** Share of generated tokens in replies that were not kept (failed checks, invalid output). */
  wastedShare: number;
  /** Replies that parsed and validated. */
  validity: number;
  /** Consistency-check pass rate of FCI calls by try number (1-based). */
  passRateByTry: { tryNo: number; calls: number; passRate: number }[];
  notesPerMinute: number;
  seconds: number;
  failures: number;
}

export interface QualityReport {
  model: string;
  chatWrapper: string | null;
  threads: number;
  sequences: number;
  notes: string[];
  strategies: StrategyFigures[];
  /** Peak resident memory of the model process (kB, Linux), and of this process. */
  peakModelRssKb: number | null;
  peakMainRssKb: number;
}

export async function runQualityBench(opts: QualityOptions): Promise<QualityReport> {
  const step = opts.onStep ?? (() => {});
  const threads = opts.threads ?? 1;
  const sequences = opts.sequences ?? 1;
  const llm = await LocalLlamaProvider.open({ modelPath: opts.modelPath, threads, sequences });
  let peakModelRssKb: number | null = null;
  const sampleMemory = () => {
    const hwm = childPeakRssKb(llm.pid);
    if (hwm !== null) peakModelRssKb = Math.max(peakModelRssKb ?? 0, hwm);
  };
  const strategies: StrategyFigures[] = [fastFigures(opts.notes)];
  try {
    for (const strategy of opts.strategies) {
      const extractions: LlmExtraction[] = [];
      const t0 = performance.now();
      for (const [i, q] of opts.notes.entries()) {
        step(`${strategy}: note ${i + 1}/${opts.notes.length} ${q.note.relPath}`);
        extractions.push(await extractWithModel(q.note, llm, opts.embedder, { strategy, concurrency: sequences }));
        sampleMemory();
      }
      const figures = modelFigures(strategy, opts.notes, extractions, (performance.now() - t0) / 1000);
      strategies.push(figures);
      opts.onStrategy?.(figures);
    }
  } finally {
    sampleMemory();
    await llm.close();
  }
  return {
    model: llm.id,
    chatWrapper: llm.info?.chatWrapper ?? null,
    threads,
    sequences,
    notes: opts.notes.map((q) => q.note.relPath),
    strategies,
    peakModelRssKb,
    peakMainRssKb: process.resourceUsage().maxRSS,
  };
}

function modelFigures(strategy: ExtractStrategy, notes: QualityNote[], ex: LlmExtraction[], seconds: number): StrategyFigures {
  const attempts = ex.flatMap((e) => e.stats.attempts);
  const tokens = ex.reduce((s, e) => s + e.stats.tokens, 0);
  const kept = attempts.filter((a) => a.kept).reduce((s, a) => s + a.tokens, 0);
  const fciCalls = attempts.filter((a) => a.kind === 'fci' || a.kind === 'piece');
  const tries = [...new Set(fciCalls.map((a) => a.tryNo))].sort((a, b) => a - b);
  return {
    strategy,
    notes: notes.length,
    pieces: ex.reduce((s, e) => s + e.stats.pieces, 0),
    calls: ex.reduce((s, e) => s + e.stats.calls, 0),
    tokensPerNote: notes.length ? tokens / notes.length : 0,
    wastedShare: tokens > 0 ? 1 - kept / tokens : 0,
    validity: attempts.length ? attempts.filter((a) => a.valid).length / attempts.length : 1,
    passRateByTry: tries.map((tryNo) => {
      const at = fciCalls.filter((a) => a.tryNo === tryNo);
      return { tryNo, calls: at.length, passRate: at.filter((a) => a.passed).length / at.length };
    }),
    notesPerMinute: seconds > 0 ? (notes.length * 60) / seconds : 0,
    seconds,
    failures: ex.reduce((s, e) => s + e.stats.failures.length, 0),
    ...shapeFigures(
      notes,
      ex,
      ex.reduce((s, e) => s + e.stats.pieces, 0),
    ),
  };
}

/** Fast mode over the same notes: the reference for mind-map shape and triples (no model, no cost). */
function fastFigures(notes: QualityNote[]): StrategyFigures {
  const t0 = performance.now();
  const ex = notes.map((q) => extractFast(q.note));
  const seconds = (performance.now() - t0) / 1000;
  const chunks = notes.reduce((s, q) => s + q.note.chunks.filter((c) => !c.isCode && c.text.trim()).length, 0);
  return {
    strategy: 'fast',
    notes: notes.length,
    pieces: chunks,
    calls: 0,
    tokensPerNote: 0,
    wastedShare: 0,
    validity: 1,
    passRateByTry: [],
    notesPerMinute: seconds > 0 ? (notes.length * 60) / seconds : 0,
    seconds,
    failures: 0,
    ...shapeFigures(notes, ex, chunks),
  };
}

function shapeFigures(notes: QualityNote[], ex: Extraction[], pieces: number): ShapeFigures {
  let fcis = 0;
  let rougeSum = 0;
  let grounded = 0;
  let outside = 0;
  let depth = 0;
  let routes = 0;
  let routeFacts = 0;
  let triples = 0;
  let bothEnds = 0;
  ex.forEach((e, i) => {
    const q = notes[i];
    if (!q) return;
    const lines = q.source.split('\n');
    const chunks = new Map(q.note.chunks.map((c) => [c.ord, c]));
    for (const f of e.fcis) {
      fcis++;
      const cited = lines.slice(f.lineFrom - 1, f.lineTo).join('\n');
      const r = rougeL(f.text, cited);
      rougeSum += r;
      if (r >= 0.15) grounded++;
      const c = chunks.get(f.chunkOrd);
      if (!c || f.lineFrom < c.lineFrom || f.lineTo > c.lineTo) outside++;
    }
    depth += treeDepth(e.mindMap);
    routes += e.mindMap.children.length;
    routeFacts += e.mindMap.children.reduce((s, r) => s + countLeaves(r), 0);
    const text = q.source.toLowerCase();
    for (const t of e.triples) {
      triples++;
      if (text.includes(t.subject.toLowerCase()) && text.includes(t.object.toLowerCase())) bothEnds++;
    }
  });
  const n = Math.max(1, ex.length);
  return {
    fcisPerNote: fcis / n,
    groundedness: fcis ? rougeSum / fcis : 0,
    groundedShare: fcis ? grounded / fcis : 0,
    outsideChunkShare: fcis ? outside / fcis : 0,
    mindMapDepth: depth / n,
    mindMapBreadth: routes / n,
    factsPerRoute: routes ? routeFacts / routes : 0,
    triplesPerPiece: pieces ? triples / pieces : 0,
    triplesBothEndsInNote: triples ? bothEnds / triples : 0,
  };
}

/** Levels from the topic (1) down to the deepest node. */
function treeDepth(node: MindMapNode): number {
  return 1 + node.children.reduce((m, c) => Math.max(m, treeDepth(c)), 0);
}

function countLeaves(node: MindMapNode): number {
  return node.children.length ? node.children.reduce((s, c) => s + countLeaves(c), 0) : 1;
}

/** VmHWM of a process (Linux /proc): its peak resident memory so far. */
function childPeakRssKb(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m?.[1] ? Number(m[1]) : null;
  } catch {
    return null;
  }
}
