import type { Db } from '../store/db.js';
import type { Embedder } from '../embed/embedder.js';
import { VectorMatrix } from '../embed/vector-matrix.js';
import { loadEmbeddings, type OwnerKind } from '../store/embeddings.js';
import { getSetting, INDEX_GENERATION } from '../store/settings.js';
import { readDerivedSnapshot, writeDerivedSnapshot } from '../store/derived-snapshots.js';
import { deserialize, serialize } from 'node:v8';

/**
 * Vectors of the index held in memory for retrieval, loaded lazily per kind and dropped when an
 * indexing run changes the index (it bumps the generation counter). Also memoises query embeddings
 * and anything else a retriever derives from the index (`derived`), and, for a one-off process, keeps
 * the costliest of those for the next one (`snapshotted`).
 */
export class IndexCache {
  private generation = -1;
  private matrices = new Map<OwnerKind, VectorMatrix>();
  private derivedValues = new Map<string, unknown>();
  private queries = new Map<string, Float32Array>();
  private analyses = new Map<string, Promise<unknown>>();
  private lastingValues = new Map<string, { fingerprint: string; value: unknown }>();
  private unsaved = new Map<string, { fingerprint: string; value: unknown }>();

  constructor(
    private readonly db: Db,
    private readonly embedder: Embedder,
    /** Read and keep snapshots (`snapshotted`): for a process that asks once and exits. */
    private readonly snapshots = false,
  ) {}

  private refresh(): void {
    const g = getSetting(this.db, INDEX_GENERATION, 0);
    if (g !== this.generation) {
      this.generation = g;
      this.matrices.clear();
      this.derivedValues.clear();
      this.analyses.clear();
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
   * A value derived from the whole index that a one-off process reads back from the snapshot the last
   * one kept (store/derived-snapshots.ts), if the index is still the generation it was derived from; else
   * built, and kept by `saveSnapshots`. `format` names the value's shape and what it is derived by: change
   * it when either changes. Plain data only (what v8 serialises: typed arrays, maps, objects). A process
   * that goes on after an edit does not use them: its lasting per-note parts (`lasting`) are cheaper
   * than a whole value read again, and a snapshot read leaves them empty.
   */
  snapshotted<T>(key: string, format: string, build: () => T): T {
    if (!this.snapshots) return build();
    this.refresh();
    const fingerprint = `${this.generation}:${this.embedder.id}:${format}`;
    const kept = readDerivedSnapshot(this.db, key, fingerprint);
    if (kept) {
      try {
        return deserialize(kept) as T;
      } catch {
        // Unreadable (a damaged row, another Node's serialisation): derived again.
      }
    }
    const value = build();
    this.unsaved.set(key, { fingerprint, value });
    return value;
  }

  /**
   * Keeps the values `snapshotted` derived for the next process: called once the answer is out, so the
   * write (under 0.1 s at 10k news) is not the asker's wait. Nothing is lost if it cannot write (a
   * read-only index, a writer holding the lock): the next process derives them again.
   */
  saveSnapshots(): void {
    for (const [key, { fingerprint, value }] of this.unsaved) {
      try {
        writeDerivedSnapshot(this.db, key, fingerprint, serialize(value));
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
