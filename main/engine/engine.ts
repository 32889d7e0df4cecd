import { readFile } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { openDb, schemaVersion, type Db } from './store/db.js';
import { createEmbedder } from './embed/registry.js';
import type { Embedder } from './embed/embedder.js';
import { indexFolder, type IndexerOptions } from './indexer.js';
import { IndexCache, type RetrievalContext } from './retrieve/retriever.js';
import { DEFAULT_METHOD, retrieve } from './retrieve/index.js';
import { extractiveAnswer } from './answer/extractive.js';
import { getSetting, setSetting } from './store/settings.js';
import { indexCounts } from './store/counts.js';
import { loadMindMap } from './store/mind-map.js';
import { buildGraphView } from './graph/graph-view.js';
import { watchFolder, type FolderWatch } from './jobs/watch.js';
import { addChatMessage, listChats, loadChat, newChat } from './store/chats.js';
import type { Answer, AskOptions, DocumentSummary, GraphView, IndexReport, MindMapView, NoteText, Stats } from './api.js';
import type { IndexProgress } from './types.js';

export interface EngineOptions {
  dbPath: string;
  /** Embedder spec (see embed/registry.ts); default: the settings' choice, else the built-in GloVe embedder. */
  embedder?: string;
}

/** The engine as one object: what the CLI, the browser-mode server and the Electron engine host drive. */
export class LociEngine {
  private readonly cache: IndexCache;
  private running: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly db: Db,
    readonly dbPath: string,
    readonly embedder: Embedder,
  ) {
    this.cache = new IndexCache(db, embedder);
  }

  static async open(opts: EngineOptions): Promise<LociEngine> {
    const db = openDb(opts.dbPath);
    try {
      const spec = opts.embedder ?? getSetting<string | undefined>(db, 'embedder', undefined);
      return new LociEngine(db, opts.dbPath, await createEmbedder(spec));
    } catch (err) {
      db.close();
      throw err;
    }
  }

  get retrievalContext(): RetrievalContext {
    return { db: this.db, embedder: this.embedder, cache: this.cache };
  }

  roots(): string[] {
    return getSetting<string[]>(this.db, 'roots', []);
  }

  /** Indexes a folder (and remembers it as a library root). Runs are serialised: one writer at a time. */
  index(root: string, opts: IndexerOptions = {}): Promise<IndexReport> {
    const abs = resolve(root);
    const run = this.running.then(async () => {
      const roots = this.roots();
      if (!roots.includes(abs)) setSetting(this.db, 'roots', [...roots, abs]);
      return indexFolder(this.db, this.embedder, abs, { ...this.indexDefaults(), ...opts });
    });
    this.running = run.catch(() => undefined);
    return run;
  }

  /** Keeps a folder's index current as files change; each change triggers an incremental run. */
  watch(root: string, onReport: (r: IndexReport) => void, onProgress?: (p: IndexProgress) => void, onError?: (e: Error) => void): FolderWatch {
    return watchFolder(resolve(root), () => this.index(root, { onProgress }), onReport, onError);
  }

  async ask(question: string, opts: AskOptions = {}): Promise<Answer> {
    const started = performance.now();
    const method = opts.method ?? getSetting(this.db, 'method', DEFAULT_METHOD);
    const k = opts.k ?? 8;
    const ctx = this.retrievalContext;
    const result = await retrieve(ctx, question, method, k);
    const { text, citations } = await extractiveAnswer(ctx, question, result.contexts);
    const chatId = opts.chatId ?? newChat(this.db, question);
    addChatMessage(this.db, chatId, { role: 'user', text: question, citations: [], method, model: null });
    addChatMessage(this.db, chatId, { role: 'assistant', text, citations, method, model: null });
    return {
      question,
      text,
      mode: 'extractive',
      model: null,
      method,
      contexts: result.contexts,
      citations,
      droppedCitations: 0,
      explanation: opts.explain ? result.explanation : undefined,
      chatId,
      ms: performance.now() - started,
    };
  }

  documents(): DocumentSummary[] {
    return this.db
      .prepare(
        `SELECT d.id, d.rel_path AS relPath, d.title, d.lang, d.status, d.error,
                (SELECT count(*) FROM chunks c WHERE c.document_id = d.id) AS chunks,
                (SELECT count(*) FROM fcis f WHERE f.document_id = d.id) AS fcis
         FROM documents d ORDER BY d.rel_path`,
      )
      .all() as DocumentSummary[];
  }

  mindMap(docPath: string): MindMapView | null {
    return loadMindMap(this.db, docPath);
  }

  /** A note's text, read from disk — only for notes of a library root, never an arbitrary path. */
  async noteText(docPath: string): Promise<NoteText> {
    const doc = this.db.prepare("SELECT root, rel_path, title FROM documents WHERE rel_path = ? AND status = 'indexed'").get(docPath) as
      | { root: string; rel_path: string; title: string }
      | undefined;
    if (!doc) throw new Error(`No indexed note '${docPath}'.`);
    const rootAbs = resolve(doc.root);
    const file = resolve(rootAbs, doc.rel_path);
    if (!file.startsWith(rootAbs + sep)) throw new Error(`'${docPath}' is outside its library folder.`);
    const content = await readFile(file, 'utf8');
    return { docPath: doc.rel_path, title: doc.title, lines: content.replace(/\r\n?/g, '\n').split('\n') };
  }

  graph(opts: { limit?: number } = {}): GraphView {
    return buildGraphView(this.db, opts.limit ?? 2000);
  }

  stats(): Stats {
    return {
      dbPath: this.dbPath,
      roots: this.roots(),
      counts: indexCounts(this.db),
      embedder: this.embedder.id,
      extractors: this.db
        .prepare('SELECT extractor, count(DISTINCT document_id) AS documents FROM fcis GROUP BY extractor ORDER BY extractor')
        .all() as Stats['extractors'],
      schemaVersion: schemaVersion(this.db),
    };
  }

  chats() {
    return listChats(this.db);
  }

  chat(id: number) {
    return loadChat(this.db, id);
  }

  settings(): Record<string, unknown> {
    const rows = this.db.prepare('SELECT key, value FROM settings').all() as { key: string; value: string }[];
    return Object.fromEntries(rows.filter((r) => !INTERNAL_SETTINGS.has(r.key)).map((r) => [r.key, JSON.parse(r.value)]));
  }

  updateSettings(patch: Record<string, unknown>): void {
    this.db.transaction(() => {
      for (const [key, value] of Object.entries(patch)) {
        if (INTERNAL_SETTINGS.has(key)) throw new Error(`Setting '${key}' is managed by Loci itself.`);
        setSetting(this.db, key, value);
      }
    })();
  }

  async close(): Promise<void> {
    await this.running;
    await this.embedder.dispose?.();
    this.db.close();
  }

  private indexDefaults(): IndexerOptions {
    return {
      fusion: getSetting(this.db, 'fusion', undefined),
      docNeighbours: getSetting(this.db, 'docNeighbours', undefined),
      maxBytes: getSetting(this.db, 'maxBytes', undefined),
    };
  }
}

const INTERNAL_SETTINGS = new Set(['index_generation', 'graph_model', 'roots']);
