import type { Db } from '../store/db.js';
import type { Embedder } from '../embed/embedder.js';
import { VectorMatrix } from '../embed/vector-matrix.js';
import { loadEmbeddings, type OwnerKind } from '../store/embeddings.js';
import { getSetting, INDEX_GENERATION } from '../store/settings.js';
import { hasDerivedSnapshot, readDerivedSnapshot, writeDerivedSnapshot } from '../store/derived-snapshots.js';
import { deserialize, serialize } from 'node:v8';

/**
 * How a process uses the snapshots of what it derives (`snapshotted`): a one-off process (`loci ask`)
 * reads them and keeps its own; a process that goes on (the app, serve, watch) reads them only until its
 * first warm-up, and keeps what it last derived when it closes; 'off' for benchmarks and tools.
 */
export type SnapshotUse = 'off' | 'one-off' | 'until-warm';

/**
 * Vectors of the index held in memory for retrieval, loaded lazily per kind and dropped when an
 * indexing run changes the index (it bumps the generation counter). Also memoises query embeddings
 * and anything else a retriever derives from the index (`derived`), and keeps the costliest of those
 * for the next process (`snapshotted`).
 */
export class IndexCache {
  private generation = -1;
  private matrices = new Map<OwnerKind, VectorMatrix>();
  private derivedValues = new Map<string, unknown>();
  private queries = new Map<string, Float32Array>();
  private analyses = new Map<string, Promise<unknown>>();
  private lastingValues = new Map<string, { fingerprint: string; value: unknown }>();
  /** Values derived in this generation, to be kept by `saveSnapshots`. */
  private unsaved = new Map<string, { fingerprint: string; value: unknown }>();
  /** Derived keys whose values were read from a snapshot, not derived. */
  private readBack = new Set<string>();
  private readingSnapshots: boolean;

  constructor(
    private readonly db: Db,
    private readonly embedder: Embedder,
    private readonly snapshotUse: SnapshotUse = 'off',
  ) {
    this.readingSnapshots = snapshotUse !== 'off';
  }

  private refresh(): void {
    const g = getSetting(this.db, INDEX_GENERATION, 0);
    if (g !== this.generation) {
      this.generation = g;
      this.matrices.clear();
      this.derivedValues.clear();
      this.analyses.clear();
      this.unsaved.clear();
      this.readBack.clear();
    }
  }

  matrix(kind: OwnerKind): VectorMatrix {
    this.refresh();
    let m = this.matrices.get(kind);
    if (!m) {
      m = new VectorMatrix(this.embedder.dim, loadEmbeddings(this.db, kind, this.embedder.id));
      this.matrices.set(kind, m);
    }
    return m;
  }

  /** What is built for the index as it is now (vector kinds, derived keys, lasting values' fingerprints): for diagnostics and tests. */
  built(): { matrices: OwnerKind[]; derived: string[]; lasting: Record<string, string> } {
    this.refresh();
    const lasting = Object.fromEntries([...this.lastingValues].map(([key, v]) => [key, v.fingerprint]));
    return { matrices: [...this.matrices.keys()], derived: [...this.derivedValues.keys()], lasting };
  }

  /** A value computed from the index, kept until the index changes. */
  derived<T>(key: string, build: () => T): T {
    this.refresh();
    if (!this.derivedValues.has(key)) this.derivedValues.set(key, build());
    return this.derivedValues.get(key) as T;
  }

  /**
   * A value derived from the whole index (`derived`) that a process reads back from the snapshot an
   * earlier one kept (store/derived-snapshots.ts) when the index is still the generation it was derived
   * from; else built, and kept by `saveSnapshots`. `format` names the value's shape and what it is derived
   * by: change it when either changes. Plain data only (what v8 serialises: typed arrays, maps, objects).
   * A value read back has no lasting per-note parts (`lasting`), which make an edit's rebuild cheap, so a
   * process that goes on reads snapshots only until its warm-up (`endSnapshotReads`).
   */
  snapshotted<T>(key: string, format: string, build: () => T): T {
    return this.derived(key, () => {
      if (this.snapshotUse === 'off') return build();
      const fingerprint = `${this.generation}:${this.embedder.id}:${format}`;
      if (this.readingSnapshots) {
        try {
          const kept = readDerivedSnapshot(this.db, key, fingerprint);
          if (kept) {
            const value = deserialize(kept) as T;
            this.readBack.add(key);
            return value;
          }
        } catch {
          // Unreadable (a damaged row, another Node's serialisation): derived again.
        }
      }
      const value = build();
      this.unsaved.set(key, { fingerprint, value });
      return value;
    });
  }

  /**
   * No snapshot is read from now on, and the values read back are dropped, to be derived with their
   * per-note parts: the warm-up of a process that goes on, in idle time, so an edit's rebuild is cheap.
   */
  endSnapshotReads(): void {
    this.readingSnapshots = false;
    for (const key of this.readBack) this.derivedValues.delete(key);
    this.readBack.clear();
  }

  /**
   * Keeps what this process derived for the index as it is now, for the next process: called as it
   * closes, so the write (under 0.1 s at 10k news) is not an asker's wait. Nothing is lost if it cannot
   * write (a read-only index, a writer holding the lock): the next process derives them again.
   */
  saveSnapshots(): void {
    if (this.snapshotUse === 'off') return;
    this.refresh();
    for (const [key, { fingerprint, value }] of this.unsaved) {
      try {
        // The app started on an unchanged index reads the graph back, then derives it again in its warm-up.
        if (!hasDerivedSnapshot(this.db, key, fingerprint)) writeDerivedSnapshot(this.db, key, fingerprint, serialize(value));
      } catch {
        // See above: a snapshot is a saving, never a requirement.
      }
    }
    this.unsaved.clear();
  }

  /**
   * A value computed from part of the index, kept across index changes while that part's `fingerprint`
   * stays the same (the entity vectors an edit seldom changes); one value per key.
   */
  lasting<T>(key: string, fingerprint: string, build: () => T): T {
    const kept = this.lastingValues.get(key);
    if (kept && kept.fingerprint === fingerprint) return kept.value as T;
    const value = build();
    this.lastingValues.set(key, { fingerprint, value });
    return value;
  }

  /** A question's analysis (and the rankings memoised on it), kept until the index changes. */
  analysis<T>(question: string, build: () => Promise<T>): Promise<T> {
    this.refresh();
    let a = this.analyses.get(question) as Promise<T> | undefined;
    if (!a) {
      a = build();
      // Small on purpose: it serves one ask (retrieval, then the answer), not a benchmark's later methods.
      if (this.analyses.size >= 8) this.analyses.clear();
      this.analyses.set(question, a);
    }
    return a;
  }

  /**
   * Forgets every question seen so far (analyses, the rankings memoised on them, query vectors), so
   * the next question pays the full cost once: the bench times each retrieval and each ask cold.
   */
  forgetQuestions(): void {
    this.analyses.clear();
    this.queries.clear();
  }

  async embedQuery(text: string): Promise<Float32Array> {
    let v = this.queries.get(text);
    if (!v) {
      // Query-side embedding where the model distinguishes it (e5's "query: " prefix).
      const [embedded] = await (this.embedder.embedQueries ?? this.embedder.embed).call(this.embedder, [text]);
      if (!embedded) throw new Error(`The embedder ${this.embedder.id} returned no vector for the question.`);
      v = embedded;
      if (this.queries.size > 256) this.queries.clear();
      this.queries.set(text, v);
    }
    return v;
  }
}
