import { readFile } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { openDb, schemaVersion, type Db } from './store/db.js';
import { createEmbedder } from './embed/registry.js';
import type { Embedder } from './embed/embedder.js';
import { indexFolder, type IndexerOptions } from './indexer.js';
import { IndexCache, type RetrievalContext } from './retrieve/retriever.js';
import { retrieve } from './retrieve/index.js';
import { extractiveAnswer } from './answer/extractive.js';
import { getSetting, setSetting } from './store/settings.js';
import { describeSettings, readSettings, writeSettings, type Settings } from './settings.js';
import { indexCounts } from './store/counts.js';
import { loadMindMap } from './store/mind-map.js';
import { buildGraphView, buildLocalGraph } from './graph/graph-view.js';
import { relatedNotes } from './graph/related.js';
import { isIndexedDocument } from './store/graph-queries.js';
import { watchFolder, type FolderWatch } from './jobs/watch.js';
import { addChatMessage, assertChat, listChats, loadChat, newChat } from './store/chats.js';
import { NotFoundError } from './errors.js';
import { reportEngineError } from './log.js';
import type { Answer, AskOptions, DocumentSummary, GraphView, IndexReport, MindMapView, NoteText, RelatedNote, Stats } from './api.js';
import type { IndexProgress, RetrievalMethod } from './types.js';
import type { LlmProvider } from './llm/provider.js';
import type { RefineReport } from './extract/llm/refine.js';
import { needsReembedding, updateGraph } from './indexer.js';

export interface EngineOptions {
  dbPath: string;
  /** Embedder spec (see embed/registry.ts); default: the settings' choice, else the built-in GloVe embedder. */
  embedder?: string;
  /**
   * Language model: a GGUF path, an installed or catalogue model id, or `http(s)://server/v1#model` for an
   * OpenAI-compatible server. Default: the 'model' setting; none means fast mode.
   */
  model?: string;
}

/** The engine as one object: what the CLI, the browser-mode server and the Electron engine host drive. */
export class LociEngine {
  private cache: IndexCache;
  private running: Promise<unknown> = Promise.resolve();
  /** Aborted by close(): index and model runs stop between notes (each note is written whole or not at all). */
  private readonly closing = new AbortController();
  /** The model provider and the settings it was opened with: changing them in Settings replaces it. */
  private llmOpening: { key: string; provider: Promise<LlmProvider> } | null = null;

  private constructor(
    readonly db: Db,
    readonly dbPath: string,
    private currentEmbedder: Embedder,
    /** The spec the embedder was made from, so Settings can tell when it changes. */
    private embedderSpec: string,
    private readonly modelOverride: string | undefined,
  ) {
    this.cache = new IndexCache(db, currentEmbedder);
  }

  /** The embedder in force; Settings may replace it (see switchEmbedder). */
  get embedder(): Embedder {
    return this.currentEmbedder;
  }

  private set embedder(e: Embedder) {
    this.currentEmbedder = e;
  }

  static async open(opts: EngineOptions): Promise<LociEngine> {
    const db = openDb(opts.dbPath);
    try {
      const spec = opts.embedder ?? readSettings(db).embedder;
      const engine = new LociEngine(db, opts.dbPath, await createEmbedder(spec), spec, opts.model);
      // An index made with another embedder (a switch, or an upgrade of the built-in one) has no vectors
      // this one can compare with: re-embed and rebuild the graph before anything is asked.
      if (needsReembedding(db, engine.embedder)) await updateGraph(db, engine.embedder, engine.indexDefaults());
      return engine;
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
    return this.serialised(async () => {
      const roots = this.roots();
      if (!roots.includes(abs)) setSetting(this.db, 'roots', [...roots, abs]);
      return indexFolder(this.db, this.embedder, abs, { ...this.indexDefaults(), ...opts, signal: this.untilClosed(opts.signal) });
    });
  }

  /** The model spec in force ('--model', else the 'model' setting), or null in fast mode. */
  modelSpec(): string | null {
    return this.modelOverride ?? (this.settings().model || null);
  }

  /**
   * The model pass: notes that fast mode made searchable are rewritten by the model (FCIs, mind map,
   * triples), cached by content hash + model + prompt version, then re-embedded and re-fused.
   * Returns null in fast mode.
   */
  refine(opts: { onProgress?: (p: IndexProgress) => void; signal?: AbortSignal } = {}): Promise<RefineReport | null> {
    return this.serialised(async () => {
      const llm = await this.llm();
      if (!llm) return null;
      const { refineIndex } = await import('./extract/llm/refine.js');
      const signal = this.untilClosed(opts.signal);
      const report = await refineIndex(this.db, this.embedder, llm, { ...opts, signal });
      await updateGraph(this.db, this.embedder, { ...this.indexDefaults(), ...opts, signal });
      return report;
    });
  }

  /** The language model, opened on first use and kept while its settings stand: loading a model is the slow part. */
  async llm(): Promise<LlmProvider | null> {
    const spec = this.modelSpec();
    const { threads, sequences } = this.settings();
    const tuning = { threads, sequences };
    const key = spec ? JSON.stringify([spec, tuning]) : null;
    if (this.llmOpening && this.llmOpening.key !== key) {
      const previous = this.llmOpening.provider;
      this.llmOpening = null;
      await (await previous.catch(() => null))?.close();
    }
    if (!spec || !key) return null;
    if (!this.llmOpening) {
      const opening = { key, provider: import('./llm/open.js').then(({ openLlm }) => openLlm(spec, tuning)) };
      // A model that fails to open is tried again next time rather than remembered as broken.
      opening.provider.catch(() => {
        if (this.llmOpening === opening) this.llmOpening = null;
      });
      this.llmOpening = opening;
    }
    return this.llmOpening.provider;
  }

  private findIndexed(docPath: string, docId?: number): { id: number; root: string; rel_path: string; title: string } | undefined {
    const sql = "SELECT id, root, rel_path, title FROM documents WHERE status = 'indexed' AND ";
    return (docId !== undefined
      ? this.db.prepare(`${sql} id = ?`).get(docId)
      : this.db.prepare(`${sql} rel_path = ? ORDER BY id LIMIT 1`).get(docPath)) as { id: number; root: string; rel_path: string; title: string } | undefined;
  }

  private untilClosed(signal?: AbortSignal): AbortSignal {
    return signal ? AbortSignal.any([signal, this.closing.signal]) : this.closing.signal;
  }

  private serialised<T>(work: () => Promise<T>): Promise<T> {
    const run = this.running.then(work);
    this.running = run.catch(() => undefined);
    return run;
  }

  /** Keeps a folder's index current as files change; each change triggers an incremental run. */
  watch(root: string, onReport: (r: IndexReport) => void, onProgress?: (p: IndexProgress) => void, onError?: (e: Error) => void): FolderWatch {
    return watchFolder(resolve(root), () => this.index(root, { onProgress }), onReport, onError);
  }

  async ask(question: string, opts: AskOptions = {}): Promise<Answer> {
    const started = performance.now();
    if (opts.chatId !== undefined) assertChat(this.db, opts.chatId);
    const method = opts.method ?? (this.settings().method as RetrievalMethod);
    const k = opts.k ?? 8;
    const llm = await this.llm();
    const ctx = this.retrievalContext;
    if (llm && (method === 'pgr' || method === 'loci')) {
      const { keyPoints } = await import('./answer/generate.js');
      ctx.keyPoints = await keyPoints(llm, question, { signal: opts.signal });
    }
    const result = await retrieve(ctx, question, method, k);
    let answer: Pick<Answer, 'text' | 'citations' | 'droppedCitations' | 'mode' | 'model'>;
    if (llm) {
      const { generateAnswer } = await import('./answer/generate.js');
      const g = await generateAnswer(llm, question, result.contexts, { onToken: opts.onToken, signal: opts.signal });
      answer = {
        text: g.text,
        mode: 'generated',
        model: llm.id,
        droppedCitations: g.dropped,
        citations: g.citations.map((n) => {
          const c = result.contexts[n - 1];
          return { n, docId: c.docId, docPath: c.docPath, docTitle: c.docTitle, lineFrom: c.lineFrom, lineTo: c.lineTo, factPath: c.factPath, text: c.text };
        }),
      };
    } else {
      answer = { ...(await extractiveAnswer(ctx, question, result.contexts, 5, result.query)), mode: 'extractive', model: null, droppedCitations: 0 };
    }
    const chatId = opts.chatId ?? newChat(this.db, question);
    addChatMessage(this.db, chatId, { role: 'user', text: question, citations: [], method, model: null });
    addChatMessage(this.db, chatId, { role: 'assistant', text: answer.text, citations: answer.citations, method, model: answer.model });
    return {
      question,
      ...answer,
      method,
      contexts: result.contexts,
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

  /** A note's mind map, by id when given (unambiguous across library folders), else by relative path. */
  mindMap(docPath: string, docId?: number): MindMapView | null {
    const doc = this.findIndexed(docPath, docId);
    return doc ? loadMindMap(this.db, doc.id) : null;
  }

  /** A note's text, read from disk — only for notes of a library root, never an arbitrary path. */
  async noteText(docPath: string, docId?: number): Promise<NoteText> {
    const doc = this.findIndexed(docPath, docId);
    if (!doc) throw new NotFoundError(`No indexed note '${docPath}'.`);
    const rootAbs = resolve(doc.root);
    const file = resolve(rootAbs, doc.rel_path);
    if (!file.startsWith(rootAbs + sep)) throw new Error(`'${docPath}' is outside its library folder.`);
    const content = await readFile(file, 'utf8');
    return { docPath: doc.rel_path, title: doc.title, lines: content.replace(/\r\n?/g, '\n').split('\n') };
  }

  graph(opts: { limit?: number } = {}): GraphView {
    return buildGraphView(this.db, opts.limit ?? 2000);
  }

  /** The graph around one note, `hops` document-layer edges out, in the shape of `graph()`. */
  localGraph(docId: number, opts: { hops?: 1 | 2; limit?: number } = {}): GraphView {
    if (!isIndexedDocument(this.db, docId)) throw new NotFoundError(`No indexed note with id ${docId}.`);
    return buildLocalGraph(this.db, docId, opts.hops ?? 1, opts.limit ?? 300);
  }

  /** Notes related to one note, best first, each with why (similar passage, shared entities, shared topics). */
  related(docId: number, opts: { limit?: number } = {}): RelatedNote[] {
    if (!isIndexedDocument(this.db, docId)) throw new NotFoundError(`No indexed note with id ${docId}.`);
    return relatedNotes(this.db, docId, this.embedder.id, opts.limit);
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
    assertChat(this.db, id);
    return loadChat(this.db, id);
  }

  /** Every user setting with the value in force (stored, else its default). */
  settings(): Settings {
    return readSettings(this.db);
  }

  /** Each setting's label, control, bounds and default (for a settings form). */
  describeSettings() {
    return describeSettings();
  }

  /** Validates and stores settings; a new embedder is loaded and the index re-embedded in the background. */
  updateSettings(patch: Record<string, unknown>): void {
    writeSettings(this.db, patch);
    const spec = this.settings().embedder;
    if (spec !== this.embedderSpec) void this.switchEmbedder(spec).catch((err) => reportEngineError('embedder', new Error(`embedder '${spec}': ${err instanceof Error ? err.message : err}`)));
  }

  /** Replaces the embedder (after running work finishes) and re-embeds the index for it. */
  switchEmbedder(spec: string): Promise<void> {
    return this.serialised(async () => {
      if (spec === this.embedderSpec) return;
      const next = await createEmbedder(spec);
      const previous = this.embedder;
      this.embedderSpec = spec;
      this.embedder = next;
      this.cache = new IndexCache(this.db, next);
      await previous.dispose?.();
      if (needsReembedding(this.db, next)) await updateGraph(this.db, next, this.indexDefaults());
    });
  }

  async close(): Promise<void> {
    this.closing.abort(new Error('Loci is closing'));
    await this.running;
    if (this.llmOpening) await (await this.llmOpening.provider.catch(() => null))?.close();
    await this.embedder.dispose?.();
    this.db.close();
  }

  private indexDefaults(): IndexerOptions {
    const s = this.settings();
    return { fusion: { topic: s.fusionTopic, fact: s.fusionFact }, docNeighbours: s.docNeighbours, maxBytes: s.maxBytes };
  }
}
