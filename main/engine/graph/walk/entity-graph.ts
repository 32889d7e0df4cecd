// The entity–chunk–note graph the `ppr` ranking walks (HippoRAG 2's passage-integrated graph, built
// from what fast indexing already extracts, no model): chunk nodes, one note node per note, entity
// nodes. Edges: chunk–note (the note holds the chunk), chunk–entity (a mention, weighted by the
// entity's IDF over chunks, as GFM-RAG does — a name found in three chunks says more than one found in
// three hundred), entity–note (the entity is the note's title: the bridge to another note), chunk–note
// for a wikilink or a title mention (the chunk's text names another note: the second hop of a
// multi-hop question, weighted by how specific that title is), entity–entity for a triple, and synonym
// edges between entities whose name vectors are nearly the same.
import type { Db } from '../../store/db.js';
import { graphChunks, graphChunkWords, graphChunkWordsOf, graphEntities, graphLinks, graphMentions, graphNotes, graphTriples, type GraphNoteRow } from '../../store/entity-graph.js';
import { frontMatterAliases } from '../../ingest/parse.js';
import { noteVersions } from '../../store/note-versions.js';
import type { VectorMatrix } from '../../embed/vector-matrix.js';
import { buildCsr, type Csr } from './pagerank.js';
import { lshPairsSync } from '../similarity/lsh-pairs.js';
import { principalCoordinates } from '../similarity/principal-basis.js';
import type { SimilarPair } from '../similarity/similar-pairs.js';
import { mentionsFrom, NoteTitleScans, noteNameKeys, titleSpecificity, titleTrie, type MentionChunk, type TitleMentions } from './title-mentions.js';
import { linkResolver, type LinkableNote } from './link-resolution.js';

export interface EntityGraphParams {
  /** Weight of a chunk–note edge. */
  wNote: number;
  /** Weight of an entity–note edge (the entity names the note), times the entity's IDF. */
  wTitle: number;
  /** Weight of a wikilink edge from the linking chunk to the target note. */
  wLink: number;
  /** Weight of an edge from a chunk to a note whose title its text mentions, times the title's specificity. */
  wMention: number;
  /** Weight of a triple edge between its two entities. */
  wTriple: number;
  /** Cosine above which two entity names are synonyms (an edge weighted by the cosine). */
  synonymThreshold: number;
  /** Synonym search is skipped above this many entities (LSH cost grows with it). */
  maxSynonymEntities: number;
}

export const DEFAULT_ENTITY_GRAPH_PARAMS: EntityGraphParams = {
  wNote: 0.5,
  wTitle: 1,
  wLink: 1,
  // The walk alone does not carry the Wikipedia bridge (loci's explicit bridges, read from the same
  // mentions, do: HotpotQA train-100 94.0 with them, 80.5 without). At 0.3 the edges changed no dev set's
  // recall@5; at 1 the documentation folders, where titles like "Graph" are written everywhere, lost a question.
  wMention: 0.3,
  wTriple: 0.5,
  synonymThreshold: 0.92,
  maxSynonymEntities: 60_000,
};

export interface EntityGraph {
  csr: Csr;
  /** Nodes [0, chunks) are chunks, [chunks, chunks + notes) notes, the rest entities. */
  chunks: number;
  notes: number;
  chunkId: Int32Array;
  /** Note (document id) of each chunk node. */
  chunkDoc: Int32Array;
  docOfNote: Int32Array;
  nodeOfChunk: Map<number, number>;
  noteOfDoc: Map<number, number>;
  /** Normalised name → entity node (or note node, for a title no entity carries). */
  byName: Map<string, number>;
  /** Entity node → entity id (−1 where none). */
  entityIdOf: Int32Array;
  /** Chunks an entity node is mentioned in (its document frequency). */
  df: Int32Array;
  /** Which notes mention which other notes' titles (and each title's note frequency): loci's bridges. */
  titleMentions: TitleMentions;
  synonymEdges: number;
  mentionEdges: number;
  buildMs: number;
}

/** Pairs of entity names whose vectors are closer than the threshold (LSH over the entity vectors). */
export type SynonymPairs = (entityVectors: VectorMatrix, threshold: number) => SimilarPair[];

/**
 * The synonym pairs as the graph finds them: two LSH tables, enough at a cosine this high. Among many
 * names each candidate pair is first compared on the names' principal coordinates, where most pairs of a
 * bucket end: the same pairs, found in about half the time at 37k names (10k news); below
 * PROJECTED_FROM names, finding the directions costs more than it saves.
 */
export const synonymPairs: SynonymPairs = (m, threshold) => {
  if (m.size < PROJECTED_FROM) return lshPairsSync(m, threshold, undefined, 2);
  const k = Math.min(SYNONYM_PROJECTED, m.dim);
  return lshPairsSync(m, threshold, undefined, 2, { k, coords: principalCoordinates(m.data, m.size, m.dim, k) });
};

/** Principal directions a pair of names is compared on before its full cosine. */
const SYNONYM_PROJECTED = 16;
/** Names from which comparing on principal coordinates first pays (measured: 127 → 93 ms at 11k names, 20 → 61–86 ms at 4k). */
const PROJECTED_FROM = 10_000;

/** What a caller may keep across index generations and hand to the next build. */
export interface KeptGraphParts {
  /** Where the synonym pairs come from (kept while the entity vectors stay the same). */
  pairsOf?: SynonymPairs;
  /** Each note's title hits as last scanned. */
  titleScans?: NoteTitleScans;
  /** Each note's version (store/note-versions.ts), when the caller has read them already. */
  versions?: Map<number, string | null>;
}

export function buildEntityGraph(db: Db, entityVectors: VectorMatrix | null, params: Partial<EntityGraphParams> = {}, kept: KeptGraphParts = {}): EntityGraph {
  const { pairsOf = synonymPairs, titleScans = new NoteTitleScans() } = kept;
  const p = { ...DEFAULT_ENTITY_GRAPH_PARAMS, ...params };
  const started = performance.now();
  const chunkRows = graphChunks(db);
  const titles = graphNotes(db).map(namedNote);
  const entities = graphEntities(db);
  const C = chunkRows.length;
  const D = titles.length;
  const E = entities.length;
  const n = C + D + E;

  const chunkId = new Int32Array(C);
  const chunkDoc = new Int32Array(C);
  const nodeOfChunk = new Map<number, number>();
  const chunksOfDoc = new Map<number, number[]>();
  chunkRows.forEach((c, i) => {
    chunkId[i] = c.id;
    chunkDoc[i] = c.docId;
    nodeOfChunk.set(c.id, i);
    const list = chunksOfDoc.get(c.docId);
    if (list) list.push(i);
    else chunksOfDoc.set(c.docId, [i]);
  });
  const docOfNote = new Int32Array(D);
  const noteOfDoc = new Map<number, number>();
  titles.forEach((t, i) => {
    docOfNote[i] = t.id;
    noteOfDoc.set(t.id, C + i);
  });
  const entityIdOf = new Int32Array(E);
  const nodeOfEntity = new Map<number, number>();
  const byName = new Map<string, number>();
  entities.forEach((e, i) => {
    entityIdOf[i] = e.id;
    nodeOfEntity.set(e.id, C + D + i);
    byName.set(e.norm, C + D + i);
  });
  /** The chunk of a note holding a line (its first chunk when none does). */
  const chunkAt = (docId: number, line: number): number | undefined => {
    const list = chunksOfDoc.get(docId);
    if (!list) return undefined;
    for (const c of list) if (chunkRows[c]!.lineFrom <= line && line <= chunkRows[c]!.lineTo) return c;
    return list[0];
  };

  const src: number[] = [];
  const dst: number[] = [];
  const w: number[] = [];
  const edge = (a: number, b: number, weight: number) => {
    src.push(a);
    dst.push(b);
    w.push(weight);
  };

  // Mentions, deduplicated per (entity, chunk), and each entity's document frequency over chunks.
  const df = new Int32Array(n);
  const mentionPairs: number[] = [];
  const seen = new Set<number>();
  for (const m of graphMentions(db)) {
    const e = nodeOfEntity.get(m.entityId);
    const c = m.chunkId !== null ? nodeOfChunk.get(m.chunkId) : chunkAt(m.docId, m.lineFrom);
    if (e === undefined || c === undefined) continue;
    const key = (e - C - D) * C + c;
    if (seen.has(key)) continue;
    seen.add(key);
    df[e]!++;
    mentionPairs.push(e, c);
  }
  const idf = (node: number) => Math.log(1 + C / Math.max(1, df[node]!));
  for (let i = 0; i < mentionPairs.length; i += 2) edge(mentionPairs[i]!, mentionPairs[i + 1]!, idf(mentionPairs[i]!));

  for (const [docId, list] of chunksOfDoc) {
    const note = noteOfDoc.get(docId);
    if (note === undefined) continue;
    for (const c of list) edge(c, note, p.wNote);
  }

  // A note is reached through the entity that is its title or alias; a name no entity carries is a name of
  // the note itself.
  for (const t of titles) {
    const note = noteOfDoc.get(t.id)!;
    for (const name of noteNameKeys(t)) {
      const e = byName.get(name);
      if (e !== undefined && e >= C + D) edge(e, note, p.wTitle * idf(e));
      else if (e === undefined) byName.set(name, note);
    }
  }
  // Each link leads to one note, found as the notes app that wrote it finds it (link-resolution.ts).
  const resolve = linkResolver(titles);
  const noteById = new Map(titles.map((t) => [t.id, t]));
  const links = graphLinks(db).flatMap((l) => {
    const from = noteById.get(l.docId);
    const to = from && resolve(l.target, from);
    return to && to.id !== l.docId ? [{ docId: l.docId, line: l.line, targetDocId: to.id, key: l.key }] : [];
  });
  for (const l of links) {
    const c = chunkAt(l.docId, l.line);
    if (c !== undefined) edge(c, noteOfDoc.get(l.targetDocId)!, p.wLink);
  }

  const versionOf = kept.versions ?? noteVersions(db);
  const versions = titles.map((t) => ({ id: t.id, version: versionOf.get(t.id) ?? null })).sort((a, b) => a.id - b.id);
  const chunkWords = function* (docIds: number[] | 'all'): Generator<MentionChunk> {
    for (const r of docIds === 'all' ? graphChunkWords(db) : graphChunkWordsOf(db, docIds)) yield { chunkId: r.chunkId, docId: r.docId, seg: r.seg, isCode: r.isCode !== 0 };
  };
  const trie = titleTrie(titles);
  const titleMentions = mentionsFrom(trie, titles.length, titleScans.hits(trie, versions, chunkWords), links);
  const titleOf = new Map(titles.map((t) => [t.id, t.title]));
  let mentionEdges = 0;
  for (const mentions of titleMentions.byDoc.values()) {
    for (const m of mentions) {
      const c = nodeOfChunk.get(m.chunkId);
      const target = noteOfDoc.get(m.docId);
      if (c === undefined || target === undefined) continue;
      edge(c, target, p.wMention * titleSpecificity(titleMentions, titleOf.get(m.docId) ?? ''));
      mentionEdges++;
    }
  }

  for (const t of graphTriples(db)) {
    const a = nodeOfEntity.get(t.s);
    const b = nodeOfEntity.get(t.o);
    if (a !== undefined && b !== undefined) edge(a, b, p.wTriple);
  }

  let synonymEdges = 0;
  if (entityVectors && entityVectors.size > 1 && entityVectors.size <= p.maxSynonymEntities) {
    for (const pair of pairsOf(entityVectors, p.synonymThreshold)) {
      const a = nodeOfEntity.get(pair.a);
      const b = nodeOfEntity.get(pair.b);
      if (a === undefined || b === undefined) continue;
      edge(a, b, pair.sim);
      synonymEdges++;
    }
  }

  const csr = buildCsr(n, src, dst, w);
  return { csr, chunks: C, notes: D, chunkId, chunkDoc, docOfNote, nodeOfChunk, noteOfDoc, byName, entityIdOf, df, titleMentions, synonymEdges, mentionEdges, buildMs: performance.now() - started };
}

/** A note row as the graph names it: title, front-matter aliases, file name, and where the file lies. */
export function namedNote(row: GraphNoteRow): LinkableNote {
  const json = (v: string | null): unknown => (v === null ? undefined : JSON.parse(v));
  const fileName = row.relPath.slice(row.relPath.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
  const aliases = frontMatterAliases({ aliases: json(row.aliases), alias: json(row.alias) });
  return { id: row.id, title: row.title, aliases, fileName, root: row.root, relPath: row.relPath };
}
