import { appendFile, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createReadStream, existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { KIND_NAMES, measureEmbedFloor, warmEmbedder } from './embed-floor.js';
import type { EmbedLedger } from '../engine/embed/embed-missing.js';
import { percentile } from './metrics.js';
import { PEER_NAMES } from './names.js';
import type { IndexProgress } from '../engine/types.js';

const SHARED = resolve(import.meta.dirname, '../../../shared/data');
const NEWS = join(SHARED, 'crud/news.jsonl.gz');
/** The indexer's phase-time key for the engine thread's share of preparing notes (see index/note-pipeline.ts). */
const ENGINE_SHARE = 'prepare on engine thread';
/** Notes edited one at a time for the one-note figure. */
const ONE_NOTE_EDITS = 9;

export interface BenchIndexOptions {
  news?: string;
  peers?: boolean;
  queries?: boolean;
  oneNote?: boolean;
  progress?: boolean;
  /** Embedder spec (embed/registry.ts) Loci indexes with; a real one adds the embedding floor and the fast index beside it. */
  embedder?: string;
}

export type IndexBenchResult = { source: string } & Awaited<ReturnType<typeof benchIndex>> & { floorRounds?: FloorRounds };

/**
 * The embedding-floor ratio of every round of a repeated bench. At a few hundred notes one run's ratio
 * moved from 1.24 to 1.55 between runs of the same code on a quiet machine: only the median says much.
 */
export interface FloorRounds {
  ratios: number[];
  median: number;
  min: number;
  max: number;
}

/**
 * `loci bench-index`: the floor (read + hash + FTS5 insert of every note in one plain loop), the peers
 * (MiniSearch, Orama) over the same texts, then Loci's full index with its phases, an unchanged re-run and
 * one changed note — all in one run, so the ratios are measured under the same load. With `embedder`, Loci
 * indexes with it, and the same run times the fast (built-in embedder) index and the embedding floor: each
 * distinct passage text embedded once, raw, by the same loaded model (embed-floor.ts). Works on a copy of
 * the folder (or on the first `news` CRUD-RAG articles written as notes), removed afterwards.
 */
export async function runIndexBench(folder: string, opts: BenchIndexOptions): Promise<IndexBenchResult> {
  const work = await mkdtemp(join(tmpdir(), 'loci-bench-index-'));
  try {
    const notes = join(work, 'notes');
    let source = folder;
    if (opts.news) {
      source = `${NEWS} (first ${opts.news})`;
      await writeNews(notes, Number(opts.news));
    } else {
      if (!existsSync(folder)) throw new Error(`No notes folder at ${folder}`);
      // A copy, so changing a note never touches the source folder.
      await cp(folder, notes, { recursive: true });
    }
    return { source, ...(await benchIndex(work, notes, opts)) };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** `rounds` whole runs one after another; the result is the round with the median embedding-floor ratio, with every round's ratio. */
export async function runIndexBenchRounds(folder: string, opts: BenchIndexOptions, rounds: number): Promise<IndexBenchResult> {
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error("--rounds must be a whole number of at least 1");
  const runs: IndexBenchResult[] = [];
  for (let i = 0; i < rounds; i++) runs.push(await runIndexBench(folder, opts));
  if (rounds === 1) return runs[0]!;
  const ratios = runs.map((r) => r.embedFloorRatio);
  const median = percentile(ratios, 50);
  return { ...runs[ratios.indexOf(median)]!, floorRounds: { ratios, median, min: Math.min(...ratios), max: Math.max(...ratios) } };
}

async function benchIndex(work: string, notes: string, opts: BenchIndexOptions) {
  const { LociEngine } = await import('../engine/engine.js');
  const { scanFolder } = await import('../engine/ingest/scan.js');
  const { files } = await scanFolder(notes);

  // Warm the page cache first, so neither the floor nor Loci pays for the first read alone; the texts
  // also serve the peers' corpus and the model's warm-up. One at a time: all at once opened every file
  // before reading any, and 30,000 notes ran out of file handles (EMFILE).
  const contents: string[] = [];
  for (const f of files) contents.push(await readFile(f.absPath, 'utf8'));
  const floor = await measureFloor(join(work, 'floor.db'), files.map((f) => f.absPath));

  const peers: Record<string, number> = {};
  if (opts.peers !== false) {
    const { buildPeer } = await import('./peers.js');
    const corpus = files.map((f, i) => ({ title: f.relPath.replace(/\.[^.]+$/, ''), text: contents[i]! }));
    for (const name of PEER_NAMES) {
      const t = performance.now();
      await buildPeer(name, corpus);
      peers[name] = (performance.now() - t) / 1000;
    }
  }

  // The fast index, when Loci's is another embedder's: what a real embedder adds to it.
  let fastSeconds: number | null = null;
  if (opts.embedder && opts.embedder !== 'glove') {
    const fast = await LociEngine.open({ dbPath: join(work, 'fast.db'), embedder: 'glove' });
    try {
      fastSeconds = (await fast.library.index(notes)).seconds;
    } finally {
      await fast.close();
    }
  }

  const dbPath = join(work, 'index.db');
  const engine = await LociEngine.open({ dbPath, embedder: opts.embedder });
  try {
    const phases = new PhaseClock(opts.progress === true);
    const queries = opts.queries ? new QueryProbe(engine.answers) : null;
    queries?.start();
    // The index and the floor after it both run on a warmed model, so the ratio is not the warm-up's.
    const embedWarmUpSeconds = await warmEmbedder(engine.embedders.embedder, contents);
    const ledger: EmbedLedger = {};
    const full = await engine.library.index(notes, { onProgress: (p) => phases.see(p), phaseTimes: phases.detail, embedLedger: ledger });
    phases.end();
    queries?.stop();
    const idle = queries ? await queries.idle(20) : null;
    const fastRatio = fastSeconds === null ? null : full.seconds / fastSeconds;
    // Right after the full index, before any edit: the passages it embedded, by the model it loaded.
    const { floor: embedFloor, kinds: embedKinds } = await measureEmbedFloor(dbPath, engine.embedders.embedder, phases.detail, ledger);

    let unchangedSeconds: number | null = null;
    let oneNoteChanged: number | null = null;
    const oneNoteSeconds: number[] = [];
    if (opts.oneNote !== false) {
      // A second of idle time, as a watcher's first edit would leave: after a run prepared in workers,
      // the engine thread builds its parser and taggers when idle (~0.4 s with jieba), which would
      // otherwise be timed as part of the re-run.
      await new Promise((r) => setTimeout(r, 1000));
      unchangedSeconds = (await engine.library.index(notes)).seconds;
      // Several notes spread over the folder, one edit each: one note alone says more about that note's
      // length than about the re-index (on SilverBullet one edit took 0.04 s, the next 0.58 s).
      const edits = Math.min(ONE_NOTE_EDITS, files.length);
      for (let i = 0; i < edits; i++) {
        const victim = files[Math.floor(((i + 0.5) * files.length) / edits)]!;
        await appendFile(victim.absPath, `\n\nAn added paragraph (${i + 1}): the benchmark changed this note to time a one-note re-index.\n`);
        const one = await engine.library.index(notes);
        oneNoteSeconds.push(one.seconds);
        oneNoteChanged = Math.max(oneNoteChanged ?? 0, one.changed);
      }
    }
    return {
      documents: full.counts.documents,
      counts: full.counts,
      floorSeconds: floor,
      peers,
      fullSeconds: full.seconds,
      floorRatio: full.seconds / floor,
      miniSearchRatio: peers.minisearch ? full.seconds / peers.minisearch : null,
      embedder: engine.embedders.embedder.id,
      embedFloor,
      /** Seconds the model was warmed on pieces of the notes before the index (timed by neither). */
      embedWarmUpSeconds,
      /** Loci's full index time over the embedding floor's. */
      embedFloorRatio: full.seconds / embedFloor.seconds,
      /** The fast index's time, when Loci indexed with another embedder (null otherwise: the full index is the fast one). */
      fastSeconds,
      fastRatio,
      /** Where the embedding went, per kind of row. */
      embedKinds,
      phases: phases.result(),
      docsPerSecond: full.counts.documents / full.seconds,
      unchangedSeconds,
      /** Each one-note re-index, in edit order. */
      oneNoteSeconds,
      oneNoteP50: percentile(oneNoteSeconds, 50),
      /** Notes re-done by the busiest of those runs (1 unless an edit touched more). */
      oneNoteChanged,
      queryDuringIndex: queries ? { ...queries.summary(), idleP50Ms: idle } : null,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
    };
  } finally {
    await engine.close();
  }
}

/** Reads, hashes and inserts every note into an FTS5 table, in one plain loop. */
async function measureFloor(dbFile: string, paths: string[]): Promise<number> {
  const { openFloorDb } = await import('./floor.js');
  const t = performance.now();
  const db = openFloorDb(dbFile);
  for (const p of paths) {
    const text = await readFile(p, 'utf8');
    db.insert(p, createHash('sha256').update(text).digest('hex'), text);
  }
  db.commit();
  db.close();
  return (performance.now() - t) / 1000;
}

/**
 * Wall time per phase, from the progress events (what any build reports), plus the indexer's own
 * breakdown of work (parse, extract, write…) when it fills `detail`.
 */
class PhaseClock {
  readonly detail: Record<string, number> = {};
  private readonly wall: Record<string, number> = {};
  private current: { phase: string; since: number } | null = null;
  private readonly started = performance.now();
  private lastLogged = 0;

  constructor(private readonly log = false) {}

  see(p: IndexProgress): void {
    if (this.log && p.phase === 'extract' && p.done >= this.lastLogged + 5000) {
      this.lastLogged = p.done;
      this.say(`${p.done} / ${p.total} notes`);
    }
    if (this.current?.phase === p.phase) return;
    this.switchTo(p.phase);
    if (this.log) this.say(`phase ${p.phase}`);
  }

  private say(what: string): void {
    const s = ((performance.now() - this.started) / 1000).toFixed(1);
    process.stderr.write(`[${s} s] ${what}; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB\n`);
  }

  end(): void {
    this.switchTo(null);
  }

  private switchTo(phase: string | null): void {
    const now = performance.now();
    if (this.current) this.wall[this.current.phase] = (this.wall[this.current.phase] ?? 0) + (now - this.current.since) / 1000;
    this.current = phase && phase !== 'done' ? { phase, since: now } : null;
  }

  result() {
    return { wallSeconds: this.wall, workSeconds: this.detail, totalSeconds: (performance.now() - this.started) / 1000 };
  }
}

const PROBE_QUESTIONS = ['how does indexing work', '新闻 发布 公司', 'what is the configuration', '市场 价格 增长'];

/** Asks a question every 250 ms; latency counts from when the question was due, so event-loop stalls show. */
class QueryProbe {
  private readonly latencies: number[] = [];
  private timer: NodeJS.Timeout | null = null;
  private n = 0;
  private inFlight = false;

  constructor(private readonly engine: { ask(q: string): Promise<unknown> }) {}

  start(): void {
    const tick = () => {
      const due = performance.now();
      this.timer = setTimeout(() => {
        if (this.inFlight) return tick();
        this.inFlight = true;
        this.engine
          .ask(PROBE_QUESTIONS[this.n++ % PROBE_QUESTIONS.length]!)
          .catch(() => undefined)
          .finally(() => {
            this.latencies.push(performance.now() - due - 250);
            this.inFlight = false;
            if (this.timer) tick();
          });
      }, 250);
    };
    tick();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  async idle(n: number): Promise<number> {
    const idle: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await this.engine.ask(PROBE_QUESTIONS[i % PROBE_QUESTIONS.length]!);
      idle.push(performance.now() - t);
    }
    return percentile(idle, 50);
  }

  summary() {
    return { asked: this.latencies.length, p50Ms: percentile(this.latencies, 50), p95Ms: percentile(this.latencies, 95) };
  }
}

/** The first n news articles as notes named by their id: untitled, as the CRUD-RAG corpus is. */
async function writeNews(dir: string, n: number): Promise<void> {
  if (!existsSync(NEWS)) throw new Error(`No CRUD-RAG news at ${NEWS}`);
  await mkdir(dir, { recursive: true });
  const lines = createInterface({ input: createReadStream(NEWS).pipe(createGunzip()) });
  let written = 0;
  for await (const line of lines) {
    if (written >= n) break;
    if (!line.trim()) continue;
    const { id, text } = JSON.parse(line) as { id: number; text: string };
    await writeFile(join(dir, `${id}.md`), `${text}\n`);
    written++;
  }
  lines.close();
}

export function formatIndexBench(r: IndexBenchResult): string {
  const s = (x: number | null | undefined, d = 2) => (x === null || x === undefined || Number.isNaN(x) ? '–' : x.toFixed(d));
  const phases = (o: Record<string, number>) => Object.entries(o).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ') || '–';
  // The engine thread's preparing is wall time around notes whose read, parse, extract and embed are
  // already in the work line: shown apart, not as more work.
  const { [ENGINE_SHARE]: engineShare, ...work } = r.phases.workSeconds;
  return [
    `Source: ${r.source} (${r.documents} notes)`,
    `floor (read + hash + FTS5 insert)  ${s(r.floorSeconds, 3)} s`,
    ...Object.entries(r.peers).map(([k, v]) => `${k.padEnd(34)} ${s(v, 3)} s`),
    `loci full index                    ${s(r.fullSeconds)} s  (${s(r.docsPerSecond, 0)} notes/s)`,
    `  ratio to floor                   ${s(r.floorRatio, 1)}×`,
    `  ratio to MiniSearch              ${s(r.miniSearchRatio, 2)}×`,
    `  phases, wall s                   ${phases(r.phases.wallSeconds)}`,
    `  work, s (all threads)            ${phases(work)}`,
    `embedding floor (${r.embedder})`.padEnd(34) + ` ${s(r.embedFloor.seconds)} s  (${r.embedFloor.texts} distinct passage texts, ${r.embedFloor.tokens} tokens, each once)`,
    `  ratio to embedding floor         ${s(r.embedFloorRatio, 2)}×  (both on a model warmed for ${s(r.embedWarmUpSeconds, 1)} s first)`,
    ...(r.floorRounds
      ? [`  over ${r.floorRounds.ratios.length} rounds`.padEnd(34) + ` median ${s(r.floorRounds.median, 2)}× [${s(r.floorRounds.min, 2)}–${s(r.floorRounds.max, 2)}]: ${r.floorRounds.ratios.map((x) => s(x, 2)).join(', ')} (this report is the median round)`]
      : []),
    ...(r.fastSeconds === null ? [] : [`fast index (built-in embedder)     ${s(r.fastSeconds)} s; loci ${s(r.fastRatio, 2)}× it`]),
    `  embedded, per kind               ${r.embedKinds.map((k) => `${KIND_NAMES[k.kind]} ${k.embedded} texts${k.composed ? ` (+${k.composed} derived)` : ''} / ${k.tokens} tokens / ${s(k.seconds, 1)} s`).join('; ')}`,
    ...(engineShare === undefined ? [] : [`  engine thread preparing notes    ${s(engineShare)} s wall between its writes (their read, parse, extract and embed are in the line above)`]),
    `unchanged re-run                   ${s(r.unchangedSeconds, 3)} s`,
    `one note changed                   p50 ${s(r.oneNoteP50, 3)} s, max ${s(r.oneNoteSeconds.length ? Math.max(...r.oneNoteSeconds) : null, 3)} s over ${r.oneNoteSeconds.length} notes, one edit each (${r.oneNoteChanged ?? '–'} re-done per run at most)`,
    ...(r.queryDuringIndex
      ? [
          `query during index                 p50 ${s(r.queryDuringIndex.p50Ms, 0)} ms, p95 ${s(r.queryDuringIndex.p95Ms, 0)} ms over ${r.queryDuringIndex.asked}; idle p50 ${s(r.queryDuringIndex.idleP50Ms, 0)} ms`,
        ]
      : []),
    `peak memory (RSS)                  ${s(r.peakRssMb, 0)} MB`,
    `counts: ${JSON.stringify(r.counts)}`,
  ].join('\n');
}
