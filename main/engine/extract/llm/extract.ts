// The LLM indexing pass for one note (PG-RAG §2.3 + KG-Retriever §3.2.1): FCIs per piece with the
// consistency check and bounded regeneration, a mind map from the FCIs, triples per piece. Every item is
// traced back to a chunk and line range. Model failures are recorded, never thrown (except cancellation).
import type { Embedder } from '../../embed/embedder.js';
import {
  DEFAULT_STRATEGY,
  fciPrompt,
  mindMapPrompt,
  PROMPT_VERSIONS,
  promptLang,
  triplePrompt,
  type ExtractStrategy,
  type PromptLang,
} from '../../llm/prompts/index.js';
import { fciOutput, mindMapOutput, tripleOutput } from '../../llm/prompts/schemas.js';
import type { LlmProvider } from '../../llm/provider.js';
import { generateStructured } from '../../llm/structured.js';
import { normalizeName } from '../../store/names.js';
import type { ExtractedEntity, ExtractedFci, ExtractedTriple, Extraction, MindMapNode, ParsedNote } from '../../types.js';
import { checkConsistency, DEFAULT_THRESHOLDS, rougeL, type ConsistencyScore, type ConsistencyThresholds } from './consistency.js';
import { triplesFromFcis } from './fci-triples.js';
import { factsForPiece, type AttemptRecord, type KeptReply, type PieceFactsOptions } from './piece-facts.js';
import { locateInPiece, segmentNote, type Piece } from './pre-segment.js';
import { mapPool } from '../../jobs/map-pool.js';
import { createHash } from 'node:crypto';

export interface ExtractOptions {
  /** 'free' (p3f, default): one bounded call per piece in free text, parsed late; 'combined' (p2): the same in strict JSON; 'separate' (p1): FCIs, mind map and triples in their own calls. */
  strategy?: ExtractStrategy;
  /** p2: regenerate a piece only when its check fails by this relative margin (default 0.3). */
  regenerateMargin?: number;
  /** p2: drop facts with less than this share of their words in the piece (default 0.5; 0 keeps all). */
  minSupport?: number;
  /** Largest piece of note text sent to the model at once (characters). */
  maxPieceChars?: number;
  thresholds?: ConsistencyThresholds;
  /** FCI generations per piece before the best try is kept (PG-RAG's <regenerate>, bounded). */
  maxTries?: number;
  /** Re-asks when a reply does not parse or validate. */
  jsonRetries?: number;
  /** Pieces in flight at once; the local provider runs them on parallel sequences. */
  concurrency?: number;
  maxTokens?: { fci?: number; mindMap?: number; triples?: number; piece?: number };
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Called as each piece's facts are done (within-note progress for long notes). */
  onPiece?: (done: number, total: number) => void;
  /** p2/p3f: replies kept earlier, by piece key (pieceKey): a piece found there is not sent to the model. */
  keptReplies?: (keys: string[]) => Map<string, KeptReply>;
}

export interface ExtractionStats {
  pieces: number;
  calls: number;
  tokens: number;
  /** Seconds spent waiting on the model. */
  modelSeconds: number;
  failures: string[];
  /** Every model call's outcome (p2 per call; p1 per structured request), for the quality report. */
  attempts: AttemptRecord[];
  /** Pieces whose reply was kept from an earlier pass (keptReplies): no model call. */
  reusedPieces: number;
}

export interface LlmExtraction extends Extraction {
  stats: ExtractionStats;
  /** p2/p3f: each piece's kept reply by its key, for the next pass over the note to reuse. */
  keptReplies: { key: string; reply: KeptReply }[];
}

/**
 * Bumped when what a piece's kept reply holds, or how it is grounded and checked, changes: replies kept
 * under another version are not reused.
 */
const KEPT_REPLY_VERSION = 1;

/**
 * What a piece's reply depends on: the model and prompts (the extractor), the embedder that checks it,
 * the options that bound it, the note's title and the piece's place and text. Line numbers are not part
 * of it: a reply reused after an edit above the piece is placed on the piece's lines as they are now.
 */
export function pieceKey(extractor: string, embedderId: string, lang: PromptLang, title: string, piece: Piece, opts: PieceFactsOptions): string {
  // How long the model may take, and whether the pass is stopped, change no reply that comes back.
  const { signal: _signal, timeoutMs: _timeout, ...bounds } = opts;
  return createHash('sha256')
    .update(JSON.stringify([KEPT_REPLY_VERSION, extractor, embedderId, lang, title, piece.headingPath, piece.text, bounds]))
    .digest('hex');
}

/** The extractor key for rows this model writes with a strategy's prompts (default: the current one). */
export function extractorFor(llm: LlmProvider, strategy: ExtractStrategy = DEFAULT_STRATEGY): string {
  return `llm:${llm.id}@${PROMPT_VERSIONS[strategy]}`;
}

export async function extractWithModel(
  note: ParsedNote,
  llm: LlmProvider,
  embedder: Embedder,
  opts: ExtractOptions = {},
): Promise<LlmExtraction> {
  const stats: ExtractionStats = { pieces: 0, calls: 0, tokens: 0, modelSeconds: 0, failures: [], attempts: [], reusedPieces: 0 };
  const model = meter(llm, stats);
  const lang = promptLang(note.lang);
  const strategy = opts.strategy ?? DEFAULT_STRATEGY;
  const pieces = segmentNote(note, opts.maxPieceChars ?? (strategy === 'separate' ? 1200 : 900));
  stats.pieces = pieces.length;
  const title = note.title || note.relPath;
  if (strategy !== 'separate') return extractCombined(note, title, pieces, lang, llm, model, embedder, opts, stats, strategy);

  let piecesDone = 0;
  const perPiece = await mapPool(pieces, opts.concurrency ?? 4, async (p) => {
    const r = await fcisForPiece(p, title, lang, model, embedder, opts, stats);
    opts.onPiece?.(++piecesDone, pieces.length);
    return r;
  });
  const fcis = perPiece.flat();
  const fciPiece = perPiece.flatMap((list, i) => list.map(() => pieces[i]!));

  const mindMap = await buildMindMap(title, fcis, fciPiece, lang, model, opts, stats);

  const tripleLists = await mapPool(pieces, opts.concurrency ?? 4, (p) => triplesForPiece(p, lang, model, opts, stats));
  const triples = tripleLists.flat();
  const entities = entitiesOf(triples);

  return { extractor: extractorFor(llm, 'separate'), fcis, mindMap, entities, triples, stats, keptReplies: [] };
}

/** p2/p3f: one call per piece gives FCIs under routes; the mind map is assembled from them and triples parsed from the FCIs. */
async function extractCombined(
  note: ParsedNote,
  title: string,
  pieces: Piece[],
  lang: PromptLang,
  llm: LlmProvider,
  model: LlmProvider,
  embedder: Embedder,
  opts: ExtractOptions,
  stats: ExtractionStats,
  strategy: ExtractStrategy,
): Promise<LlmExtraction> {
  const extractor = extractorFor(llm, strategy);
  const pieceOpts: PieceFactsOptions = {
    thresholds: opts.thresholds ?? DEFAULT_THRESHOLDS,
    maxTries: opts.maxTries ?? 2,
    regenerateMargin: opts.regenerateMargin ?? 0.3,
    free: strategy === 'free',
    maxTokens: opts.maxTokens?.piece ?? 320,
    jsonRetries: opts.jsonRetries ?? 1,
    minSupport: opts.minSupport,
    signal: opts.signal,
    timeoutMs: opts.timeoutMs,
  };
  const keys = pieces.map((p) => pieceKey(extractor, embedder.id, lang, title, p, pieceOpts));
  const earlier = opts.keptReplies?.(keys) ?? new Map<string, KeptReply>();
  let piecesDone = 0;
  const results = await mapPool(pieces, opts.concurrency ?? 4, async (p) => {
    const reused = earlier.get(keys[p.index]!) ?? null;
    if (reused) stats.reusedPieces++;
    const r = await factsForPiece(p, title, lang, model, embedder, pieceOpts, reused);
    opts.onPiece?.(++piecesDone, pieces.length);
    return r;
  });
  const keptReplies = results.flatMap((r, i) => (r.kept ? [{ key: keys[i]!, reply: r.kept }] : []));
  const fcis: ExtractedFci[] = [];
  const routes: MindMapNode[] = [];
  for (const r of results) {
    stats.attempts.push(...r.attempts);
    if (r.failure) stats.failures.push(`fci ${r.failure}`);
    for (const route of r.routes) {
      const children: MindMapNode[] = route.fcis.map((fci) => {
        fcis.push(fci);
        return { kind: 'fact', text: fci.text, fciIndex: fcis.length - 1, lineFrom: fci.lineFrom, lineTo: fci.lineTo, children: [] };
      });
      // A route the model names like one already in the map (another piece) is the same route.
      const same = routes.find((x) => x.text.toLowerCase() === (route.route || title).toLowerCase());
      if (same) {
        same.children.push(...children);
        same.lineFrom = Math.min(same.lineFrom!, ...children.map((c) => c.lineFrom!));
        same.lineTo = Math.max(same.lineTo!, ...children.map((c) => c.lineTo!));
      } else routes.push(routeNode(route.route || title, children));
    }
  }
  const lines = routes.flatMap((r) => [r.lineFrom!, r.lineTo!]);
  const mindMap: MindMapNode = {
    kind: 'topic',
    text: title,
    lineFrom: lines.length ? Math.min(...lines) : undefined,
    lineTo: lines.length ? Math.max(...lines) : undefined,
    children: routes,
  };
  const { triples, entities } = triplesFromFcis(note, fcis);
  return { extractor, fcis, mindMap, entities, triples, stats, keptReplies };
}

async function fcisForPiece(
  piece: Piece,
  title: string,
  lang: PromptLang,
  llm: LlmProvider,
  embedder: Embedder,
  opts: ExtractOptions,
  stats: ExtractionStats,
): Promise<ExtractedFci[]> {
  const [pieceVector] = await embedder.embed([piece.text]);
  const thresholds = opts.thresholds ?? DEFAULT_THRESHOLDS;
  let best: { facts: string[]; score: ConsistencyScore; attempt: AttemptRecord } | undefined;
  const tries = opts.maxTries ?? 3;
  for (let t = 0; t < tries; t++) {
    const r = await generateStructured(llm, fciPrompt(lang, { title, headingPath: piece.headingPath, text: piece.text }), fciOutput, {
      maxTokens: opts.maxTokens?.fci ?? 1200,
      retries: opts.jsonRetries ?? 1,
      temperature: t * 0.4,
      seed: 1 + t * 10,
      signal: opts.signal,
      timeoutMs: opts.timeoutMs,
    });
    const attempt: AttemptRecord = { kind: 'fci', piece: piece.index, tryNo: t + 1, tokens: r.tokens, valid: r.ok, passed: null, kept: false };
    stats.attempts.push(attempt);
    if (!r.ok) {
      stats.failures.push(`fci piece ${piece.index}: ${r.error}`);
      continue;
    }
    const facts = unique(r.value.facts.map(clean).filter((f) => f.length >= 3));
    if (!facts.length) continue;
    const score = await checkConsistency(facts.join('\n'), piece.text, embedder, thresholds, pieceVector);
    attempt.passed = score.passed;
    if (!best || better(score, best.score)) best = { facts, score, attempt };
    if (score.passed) break;
  }
  if (best) best.attempt.kept = true;
  if (!best) {
    stats.failures.push(`fci piece ${piece.index}: no usable facts after ${tries} tries`);
    return [];
  }
  const { score } = best;
  return best.facts.map((text) => {
    const part = locateInPiece(piece, text);
    return { chunkOrd: part.chunkOrd, text, lineFrom: part.lineFrom, lineTo: part.lineTo, checkRouge: score.rouge, checkSim: score.sim, checkPassed: score.passed };
  });
}

function better(a: ConsistencyScore, b: ConsistencyScore): boolean {
  if (a.passed !== b.passed) return a.passed;
  return a.rouge + a.sim > b.rouge + b.sim;
}

const MIND_MAP_BATCH = 24;

async function buildMindMap(
  title: string,
  fcis: ExtractedFci[],
  fciPiece: Piece[],
  lang: PromptLang,
  llm: LlmProvider,
  opts: ExtractOptions,
  stats: ExtractionStats,
): Promise<MindMapNode> {
  const routes: MindMapNode[] = [];
  const placed = new Set<number>();
  for (let start = 0; start < fcis.length; start += MIND_MAP_BATCH) {
    const batch = fcis.slice(start, start + MIND_MAP_BATCH);
    const r = await generateStructured(llm, mindMapPrompt(lang, { title, fcis: batch.map((f) => f.text) }), mindMapOutput, {
      maxTokens: opts.maxTokens?.mindMap ?? 2048,
      retries: opts.jsonRetries ?? 1,
      signal: opts.signal,
      timeoutMs: opts.timeoutMs,
    });
    stats.attempts.push({ kind: 'mindMap', piece: null, tryNo: 1, tokens: r.tokens, valid: r.ok, passed: null, kept: r.ok });
    if (!r.ok) {
      stats.failures.push(`mind map (facts ${start + 1}–${start + batch.length}): ${r.error}`);
      continue;
    }
    for (const route of r.value.routes) {
      const children: MindMapNode[] = [];
      for (const f of route.facts) {
        const local = f.n >= 1 && f.n <= batch.length ? f.n - 1 : closest(batch.map((b) => b.text), f.fact);
        const index = start + local;
        if (placed.has(index)) continue;
        placed.add(index);
        const fci = fcis[index]!;
        children.push({ kind: 'fact', text: clean(f.fact) || fci.text, fciIndex: index, lineFrom: fci.lineFrom, lineTo: fci.lineTo, children: [] });
      }
      if (children.length) routes.push(routeNode(clean(route.route) || title, children));
    }
  }
  // Facts the model left out (or every fact, when it failed) still belong in the map: under their heading.
  const byHeading = new Map<string, MindMapNode[]>();
  fcis.forEach((fci, i) => {
    if (placed.has(i)) return;
    const heading = fciPiece[i]?.headingPath.at(-1) ?? title;
    const list = byHeading.get(heading) ?? [];
    list.push({ kind: 'fact', text: fci.text, fciIndex: i, lineFrom: fci.lineFrom, lineTo: fci.lineTo, children: [] });
    byHeading.set(heading, list);
  });
  for (const [heading, children] of byHeading) routes.push(routeNode(heading, children));
  const lines = routes.flatMap((r) => [r.lineFrom!, r.lineTo!]);
  return {
    kind: 'topic',
    text: title,
    lineFrom: lines.length ? Math.min(...lines) : undefined,
    lineTo: lines.length ? Math.max(...lines) : undefined,
    children: routes,
  };
}

function routeNode(text: string, children: MindMapNode[]): MindMapNode {
  return {
    kind: 'route',
    text,
    lineFrom: Math.min(...children.map((c) => c.lineFrom!)),
    lineTo: Math.max(...children.map((c) => c.lineTo!)),
    children,
  };
}

async function triplesForPiece(piece: Piece, lang: PromptLang, llm: LlmProvider, opts: ExtractOptions, stats: ExtractionStats): Promise<ExtractedTriple[]> {
  const r = await generateStructured(llm, triplePrompt(lang, piece.text), tripleOutput, {
    maxTokens: opts.maxTokens?.triples ?? 1200,
    retries: opts.jsonRetries ?? 1,
    signal: opts.signal,
    timeoutMs: opts.timeoutMs,
  });
  stats.attempts.push({ kind: 'triples', piece: piece.index, tryNo: 1, tokens: r.tokens, valid: r.ok, passed: null, kept: r.ok });
  if (!r.ok) {
    stats.failures.push(`triples piece ${piece.index}: ${r.error}`);
    return [];
  }
  const seen = new Set<string>();
  const out: ExtractedTriple[] = [];
  for (const t of r.value.triples) {
    const subject = clean(t.subject);
    const relation = clean(t.relation);
    const object = clean(t.object);
    if (!subject || !relation || !object || !normalizeName(subject) || !normalizeName(object)) continue;
    const key = `${normalizeName(subject)}|${relation.toLowerCase()}|${normalizeName(object)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const part = locateInPiece(piece, `${subject} ${relation} ${object}`);
    out.push({ subject, relation, object, chunkOrd: part.chunkOrd, lineFrom: part.lineFrom, lineTo: part.lineTo });
  }
  return out;
}

function entitiesOf(triples: ExtractedTriple[]): ExtractedEntity[] {
  const seen = new Map<string, ExtractedEntity>();
  for (const t of triples) {
    for (const name of [t.subject, t.object]) {
      const norm = normalizeName(name);
      const key = `${norm}|${t.chunkOrd}`;
      if (!norm || seen.has(key)) continue;
      seen.set(key, { name, norm, chunkOrd: t.chunkOrd, lineFrom: t.lineFrom, lineTo: t.lineTo });
    }
  }
  return [...seen.values()];
}

function closest(texts: string[], text: string): number {
  let best = 0;
  let bestScore = -1;
  texts.forEach((t, i) => {
    const s = rougeL(text, t);
    if (s > bestScore) {
      best = i;
      bestScore = s;
    }
  });
  return best;
}

function clean(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}

/** Counts calls, generated tokens and model time for the stats. */
function meter(llm: LlmProvider, stats: ExtractionStats): LlmProvider {
  return {
    id: llm.id,
    close: () => llm.close(),
    async generate(req) {
      const t0 = performance.now();
      stats.calls++;
      try {
        const r = await llm.generate(req);
        stats.tokens += r.tokens;
        return r;
      } finally {
        stats.modelSeconds += (performance.now() - t0) / 1000;
      }
    },
  };
}
