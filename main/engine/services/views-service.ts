// What the UI reads of the index: notes and their states, a note's text and mind map, the graph (whole
// or around a note), related notes, and the index's figures. Reads only.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { schemaVersion } from '../store/db.js';
import { indexCounts } from '../store/counts.js';
import { languageCounts } from '../store/languages.js';
import { loadMindMap } from '../store/mind-map.js';
import { isIndexedDocument } from '../store/graph-queries.js';
import { documentStates, extractorCounts, findIndexedDocument, type DocumentStateRow } from '../store/library.js';
import { buildGraphView, buildLocalGraph } from '../graph/graph-view.js';
import { relatedNotes } from '../graph/related.js';
import { buildClusterView, buildGraphOverview } from '../graph/overview.js';
import { libraryTags, noteLinks } from '../graph/note-links.js';
import { OutsideLibraryError, realPathInside } from '../ingest/contain.js';
import { noteContent } from '../ingest/read.js';
import { NotFoundError } from '../errors.js';
import type { ClusterGrouping, ClusterView, DocumentSummary, GraphOverview, GraphView, MindMapView, NoteLinks, NoteTags, NoteText, RelatedNote, Stats } from '../api.js';
import { errorText, type EngineContext } from './engine-context.js';
import type { EmbedderService } from './embedder-service.js';

export class ViewsService {
  constructor(
    private readonly ctx: EngineContext,
    private readonly embedders: EmbedderService,
    /** The library's folders that can be indexed (stats lists them). */
    private readonly roots: () => string[],
  ) {}

  /** Every note the index knows, with its state: fast or model rows, skipped or failed with the reason. */
  documents(): DocumentSummary[] {
    return documentStates(this.ctx.db).map(toSummary);
  }

  /** A note's mind map, by id when given (unambiguous across library folders), else by relative path. */
  mindMap(docPath: string, docId?: number): MindMapView | null {
    const doc = findIndexedDocument(this.ctx.db, docPath, docId);
    return doc ? loadMindMap(this.ctx.db, doc.id) : null;
  }

  /** A note's text, read from disk — only when its real path (links resolved) lies inside its library folder. */
  async noteText(docPath: string, docId?: number): Promise<NoteText> {
    const { doc, real } = await this.noteFile(docPath, docId);
    // Read as indexing read it (encoding, line breaks), so line N here is the line N citations name.
    // Its text only: no hash, and its real path was checked just above.
    const read = noteContent(await readFile(real));
    if (!read.ok && read.reason === 'empty') return { docPath: doc.rel_path, title: doc.title, lines: [] };
    if (!read.ok) throw new Error(`'${doc.rel_path}' cannot be shown: ${read.reason} (${read.detail})`);
    return { docPath: doc.rel_path, title: doc.title, lines: read.content.split('\n') };
  }

  /** The file behind an indexed note, by its real path — never one whose links lead out of its folder. */
  async noteFile(docPath: string, docId?: number) {
    const doc = findIndexedDocument(this.ctx.db, docPath, docId);
    if (!doc) throw new NotFoundError(`No indexed note '${docPath}'.`);
    const file = resolve(doc.root, doc.rel_path);
    const real = await realPathInside(doc.root, file).catch((err: unknown) => {
      throw new Error(`'${doc.rel_path}' cannot be read: ${errorText(err)}`);
    });
    if (!real) throw new OutsideLibraryError(`'${doc.rel_path}'`);
    return { doc, real };
  }

  graph(opts: { limit?: number } = {}): GraphView {
    return buildGraphView(this.ctx.db, opts.limit ?? 2000);
  }

  /** The whole library as clusters with the edges between them counted (graph/overview.ts). */
  graphOverview(by?: ClusterGrouping): GraphOverview {
    return buildGraphOverview(this.ctx.db, by);
  }

  /** One overview cluster opened into its notes. */
  graphCluster(id: string, by?: ClusterGrouping): ClusterView {
    return buildClusterView(this.ctx.db, id, by);
  }

  /** The graph around one note, `hops` document-layer edges out, in the shape of `graph()`. */
  localGraph(docId: number, opts: { hops?: 1 | 2; limit?: number } = {}): GraphView {
    if (!isIndexedDocument(this.ctx.db, docId)) throw new NotFoundError(`No indexed note with id ${docId}.`);
    return buildLocalGraph(this.ctx.db, docId, opts.hops ?? 1, opts.limit ?? 300);
  }

  /** A note's links resolved to notes, its backlinks and its tags (graph/note-links.ts). */
  noteLinks(docId: number): NoteLinks {
    const links = noteLinks(this.ctx.db, docId);
    if (!links) throw new NotFoundError(`No indexed note with id ${docId}.`);
    return links;
  }

  tags(): NoteTags {
    return libraryTags(this.ctx.db);
  }

  /** Notes related to one note, best first, each with why (similar passage, shared entities, shared topics). */
  related(docId: number, opts: { limit?: number } = {}): RelatedNote[] {
    if (!isIndexedDocument(this.ctx.db, docId)) throw new NotFoundError(`No indexed note with id ${docId}.`);
    return relatedNotes(this.ctx.db, docId, this.embedders.embedder.id, opts.limit);
  }

  stats(): Stats {
    const { db } = this.ctx;
    return {
      dbPath: this.ctx.dbPath,
      roots: this.roots(),
      counts: indexCounts(db),
      embedder: this.embedders.embedder.id,
      extractors: extractorCounts(db),
      schemaVersion: schemaVersion(db),
      languages: languageCounts(db),
      switching: this.embedders.progress,
    };
  }
}

function toSummary(d: DocumentStateRow): DocumentSummary {
  const { modelExtractor, lastJobStatus, lastJobError, ...rest } = d;
  if (d.status === 'skipped') return { ...rest, state: 'skipped', reason: d.error };
  if (d.status === 'error') return { ...rest, state: 'failed', reason: d.error };
  if (modelExtractor) return { ...rest, state: 'model', reason: null };
  // A model attempt that failed for the note itself (not a cancel or a killed run) is shown as failed.
  if (lastJobStatus === 'failed' && lastJobError && !['cancelled', 'interrupted'].includes(lastJobError)) {
    return { ...rest, state: 'failed', reason: `model pass: ${lastJobError}` };
  }
  return { ...rest, state: 'fast', reason: null };
}
