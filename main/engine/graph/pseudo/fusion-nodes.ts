import type { Db } from '../../store/db.js';
import { toFloat32 } from '../../store/embeddings.js';
import { loadFusionVectors, superMemberships, type SuperKind } from '../../store/super-nodes.js';
import { principalBasis, projectRow } from '../similarity/principal-basis.js';

/**
 * The pseudo-graph's topic or fact nodes with their vectors, as growable typed rows: node id, document
 * id and the unit vector, row by row.
 */
export class NodeRows {
  ids: Int32Array;
  docs: Int32Array;
  data: Float32Array;
  /**
   * Each row's coordinates on PROJECTED orthonormal directions (the rows' principal ones), once
   * `project` has run. Projection onto orthonormal directions never lengthens a difference, so two rows
   * whose projections lie farther apart than √(2(1 − t)) cannot reach cosine t: a search compares
   * PROJECTED numbers per row instead of `dim`, and misses nothing.
   */
  proj: Float32Array;
  private basis: Float32Array | null = null;
  size = 0;

  constructor(readonly dim: number, capacity = 256) {
    this.ids = new Int32Array(capacity);
    this.docs = new Int32Array(capacity);
    this.data = new Float32Array(capacity * dim);
    this.proj = new Float32Array(capacity * PROJECTED);
  }

  add(id: number, doc: number, vector: Float32Array): void {
    if (this.size === this.ids.length) this.grow();
    this.ids[this.size] = id;
    this.docs[this.size] = doc;
    this.data.set(vector, this.size * this.dim);
    if (this.basis) this.projectRow(this.size);
    this.size++;
  }

  get projected(): boolean {
    return this.basis !== null;
  }

  /** Finds the principal directions of the rows held now and projects every row (later ones as added). */
  project(): void {
    const basis = new Float32Array(PROJECTED * this.dim);
    basis.set(principalBasis(this.data, this.size, this.dim, Math.min(PROJECTED, this.dim)));
    this.basis = basis;
    for (let r = 0; r < this.size; r++) this.projectRow(r);
  }

  private projectRow(r: number): void {
    projectRow(this.data, this.dim, r, this.basis!, PROJECTED, this.proj);
  }

  /** Drops the rows of these documents, keeping the others in their order. */
  removeDocs(docs: Set<number>): void {
    const { dim } = this;
    let w = 0;
    for (let r = 0; r < this.size; r++) {
      if (docs.has(this.docs[r]!)) continue;
      if (w !== r) {
        this.ids[w] = this.ids[r]!;
        this.docs[w] = this.docs[r]!;
        this.data.copyWithin(w * dim, r * dim, (r + 1) * dim);
        this.proj.copyWithin(w * PROJECTED, r * PROJECTED, (r + 1) * PROJECTED);
      }
      w++;
    }
    this.size = w;
  }

  private grow(): void {
    const capacity = Math.max(256, this.ids.length * 2);
    const ids = new Int32Array(capacity);
    const docs = new Int32Array(capacity);
    const data = new Float32Array(capacity * this.dim);
    const proj = new Float32Array(capacity * PROJECTED);
    ids.set(this.ids.subarray(0, this.size));
    docs.set(this.docs.subarray(0, this.size));
    data.set(this.data.subarray(0, this.size * this.dim));
    proj.set(this.proj.subarray(0, this.size * PROJECTED));
    this.ids = ids;
    this.docs = docs;
    this.data = data;
    this.proj = proj;
  }
}

/** Directions each row is projected on (see NodeRows.proj). */
export const PROJECTED = 16;


export type FusionNodes = Record<SuperKind, NodeRows>;

/**
 * What this process last read or wrote of the pseudo-graph's nodes, per database, with the stamp the
 * graph step that kept them wrote. A merge of a few changed notes then reads only their nodes instead of
 * every vector in the index (at 10k news notes, 134k vectors: seconds per changed note). Any other writer
 * (another process on the same file, a failed step) leaves another stamp, and the next step reads
 * everything again.
 */
const cached = new WeakMap<Db, { model: string; stamp: string; nodes: FusionNodes; superOf: Map<number, number> }>();

/**
 * The nodes as the index holds them under `stamp`: from the cache when it is current (with the super
 * node each belonged to when kept), else read whole.
 */
export function fusionNodes(db: Db, model: string, stamp: string): { nodes: FusionNodes; fromCache: boolean; superOf: Map<number, number> | null } {
  const hit = cached.get(db);
  if (hit && hit.model === model && hit.stamp === stamp) return { nodes: hit.nodes, fromCache: true, superOf: hit.superOf };
  cached.delete(db);
  return { nodes: readNodes(db, model), fromCache: false, superOf: null };
}

/** Node ids of the changed documents' kept rows (their old nodes, before refreshDocs replaces them). */
export function nodesOfDocs(nodes: FusionNodes, docs: Set<number>): number[] {
  const out: number[] = [];
  for (const rows of [nodes.topic, nodes.fact]) for (let r = 0; r < rows.size; r++) if (docs.has(rows.docs[r]!)) out.push(rows.ids[r]!);
  return out;
}

/** Replaces the rows of the changed documents by what the index now holds for them. */
export function refreshDocs(db: Db, model: string, nodes: FusionNodes, changed: Set<number>): void {
  nodes.topic.removeDocs(changed);
  nodes.fact.removeDocs(changed);
  appendRows(nodes, loadFusionVectors(db, model, [...changed]));
}

/** Remembers the nodes as the index holds them under `stamp` (after the step that wrote them). */
export function keepFusionNodes(db: Db, model: string, stamp: string, nodes: FusionNodes): void {
  cached.set(db, { model, stamp, nodes, superOf: new Map(superMemberships(db)) });
}

export function forgetFusionNodes(db: Db): void {
  cached.delete(db);
}

/** Below this many rows a search compares whole vectors: projecting would cost more than it saves. */
const PROJECT_FROM = 1000;

/** Every topic and fact node of the index, read whole (projected where there are enough rows). */
export function readNodes(db: Db, model: string): FusionNodes {
  const rows = loadFusionVectors(db, model, null);
  const dim = rows[0] ? rows[0][3].byteLength / 4 : 0;
  const nodes: FusionNodes = { topic: new NodeRows(dim), fact: new NodeRows(dim) };
  appendRows(nodes, rows);
  for (const kind of ['topic', 'fact'] as const) if (nodes[kind].size >= PROJECT_FROM) nodes[kind].project();
  return nodes;
}

function appendRows(nodes: FusionNodes, rows: [number, number, SuperKind, Buffer][]): void {
  for (const [id, doc, kind, buf] of rows) {
    const dim = buf.byteLength / 4;
    if (nodes[kind].size === 0 && nodes[kind].dim !== dim) nodes[kind] = new NodeRows(dim);
    const target = nodes[kind];
    if (target.dim !== dim) continue; // a stray vector of another size cannot be compared
    target.add(id, doc, toFloat32(buf));
  }
}
