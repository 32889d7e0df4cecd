// The one list of every call and event between the UI and the engine. Both transports (Electron IPC
// and browser-mode HTTP/WebSocket), the client, and the dispatcher are generated from this object;
// nothing else in the code base names a channel.
import { z } from 'zod';
import * as s from './schemas.js';

const none = z.object({}).strict();
const docPath = z.string().min(1, 'a note path is required');
/** Optional, and preferred when given: two library folders may hold notes with the same relative path. */
const docId = z.number().int().positive().optional();
/** Absolute (POSIX '/…', Windows 'C:\\…' or '\\\\server\\…'): a relative path would resolve against the engine's working directory. */
const root = z
  .string()
  .min(1, 'a folder path is required')
  .max(4096)
  .refine((p) => /^(\/|[A-Za-z]:[\\/]|\\\\)/.test(p), "give the folder's full (absolute) path, not a relative one")
  .refine((p) => !p.includes('\0'), 'a folder path cannot hold a NUL byte');
const globs = z.array(z.string().max(500)).max(200);

function call<Req extends z.ZodType, Res extends z.ZodType>(request: Req, response: Res, doc: string) {
  return { request, response, doc };
}

export const calls = {
  'library.roots': call(none, z.array(z.string()), 'Folders in the library.'),
  'library.documents': call(none, z.array(s.documentSummary), 'Every note the index knows, with status.'),
  'library.tags': call(none, s.noteTags, 'The tags of every note that has any (front matter and #tags).'),
  'library.index': call(
    z.object({ root, watch: z.boolean().optional() }).strict(),
    s.indexReport,
    "Index a folder as one job: resolves when its notes are searchable (fast pass); a configured model's pass follows, and the job ends with one index.report event. The folder joins the library only when the run succeeds. With watch, keep it current afterwards.",
  ),
  'library.cancelIndex': call(
    z.object({ root }).strict(),
    z.object({ cancelled: z.boolean() }),
    "Stop a folder's running job (fast pass or model pass); its index.report says cancelled.",
  ),
  'library.folders': call(none, z.array(s.folderSummary), 'Library folders with their scope, note count, watcher and job state.'),
  'library.remove': call(
    z.object({ root }).strict(),
    z.object({ root: z.string(), removed: z.number() }),
    'Remove a folder from the library with everything it contributed (notes, passages, vectors, entities only it mentioned, graph); stops its job and watcher.',
  ),
  'library.setScope': call(
    z.object({ root, include: globs, exclude: globs }).strict(),
    s.indexReport,
    "Set a folder's .gitignore-style include/exclude globs and re-index it (notes now excluded are removed); resolves when its notes are searchable.",
  ),
  'library.reindex': call(
    z.object({ root, docId }).strict(),
    s.indexReport,
    'Re-extract a folder (or one note of it) although nothing changed; resolves when searchable, the job goes on as for library.index.',
  ),
  'library.completePath': call(
    z.object({ prefix: z.string().min(1, 'type the start of a path').max(4096), hidden: z.boolean().optional() }).strict(),
    z.object({ dir: z.string(), matches: z.array(z.string()), truncated: z.boolean() }),
    'Existing directories starting with a typed path (up to 20; hidden ones only when asked or typed), for the folder field.',
  ),
  'library.estimate': call(
    z.object({ embedder: z.string().trim().min(1, 'name an embedder').max(4096), root: root.optional(), refresh: z.boolean().optional() }).strict(),
    s.indexEstimate,
    "How long indexing the library's folders (or one folder, `root`) from scratch takes with an embedder on this machine: a short timed probe of the real index run on a sample of the notes, in a temporary database, kept per embedder and library until the library's size changes markedly; `refresh` measures again.",
  ),
  'engine.warnings': call(none, z.array(z.string()), 'Problems the engine worked around since it started (e.g. a stored embedder that failed to load, a refused folder), and notices (e.g. notes extracted again after an upgrade).'),
  ask: call(
    z
      .object({
        question: z.string().trim().min(1, 'the question is empty').max(4000),
        method: s.retrievalMethod.optional(),
        k: z.number().int().min(1).max(50).optional(),
        chatId: z.number().int().positive().optional(),
        /** Tokens of this answer arrive as answer.token events tagged with this id. */
        streamId: z.string().min(1).max(64).optional(),
      })
      .strict(),
    s.answer,
    'Answer a question from the index, with numbered citations. An ask given a streamId can be stopped by ask.cancel.',
  ),
  'ask.cancel': call(
    z.object({ streamId: z.string().min(1).max(64) }).strict(),
    z.object({ cancelled: z.boolean() }),
    'Stop the answer being written for this streamId: a model stops, nothing of it is saved, and its ask fails as cancelled; false when none is running.',
  ),
  'notes.mindMap': call(z.object({ docPath, docId }).strict(), s.mindMapView.nullable(), "A note's mind map tree."),
  'notes.text': call(z.object({ docPath, docId }).strict(), s.noteText, "A note's lines (only notes inside the library's folders)."),
  'notes.links': call(
    z.object({ docId: z.number().int().positive() }).strict(),
    s.noteLinks,
    "A note's links with the notes they lead to, the notes that link to it (backlinks), and its tags.",
  ),
  'graph.view': call(
    z.object({ limit: z.number().int().min(1).max(20000).optional() }).strict(),
    s.graphView,
    'Documents, shared entities and super-topics as a graph.',
  ),
  'graph.overview': call(
    z.object({ by: s.clusterGrouping.optional() }).strict(),
    s.graphOverview,
    'The whole library as clusters (folders, or super-topics where folders do not split it) sized by their notes, with the document-layer edges between clusters counted.',
  ),
  'graph.cluster': call(
    z.object({ id: z.string().min(1, 'a cluster id is required').max(8192), by: s.clusterGrouping.optional() }).strict(),
    s.clusterView,
    "One overview cluster opened: its notes with the edges among them, and each note's edges to the other clusters, counted.",
  ),
  'graph.local': call(
    z
      .object({
        docId: z.number().int().positive(),
        hops: z.union([z.literal(1), z.literal(2)]).optional(),
        limit: z.number().int().min(1).max(5000).optional(),
      })
      .strict(),
    s.graphView,
    "The graph around one note (1 or 2 document-layer hops), shaped like graph.view; each note carries its distance in hops.",
  ),
  'notes.related': call(
    z.object({ docId: z.number().int().positive(), limit: z.number().int().min(1).max(100).optional() }).strict(),
    z.array(s.relatedNote),
    'Notes related to one note, best first, each with why: a similar passage, shared entities (rarest first), shared super-topics.',
  ),
  stats: call(none, s.stats, 'Index counts, embedder and extractors.'),
  'chats.list': call(none, z.array(s.chatSummary), 'Past conversations.'),
  'chats.get': call(z.object({ id: z.number().int().positive() }).strict(), z.array(s.chatMessage), 'One conversation.'),
  'chats.delete': call(z.object({ id: z.number().int().positive() }).strict(), z.object({}).strict(), 'Forget one past conversation (its questions and answers; the notes and the index are untouched).'),
  'settings.get': call(none, s.settingsRecord, 'Engine settings.'),
  'settings.update': call(z.object({ patch: s.settingsRecord }).strict(), s.settingsRecord, 'Change settings; returns them all.'),
  'settings.describe': call(none, s.settingsDescription, 'Every setting with its label, description, group, control, bounds and default, for a settings form.'),
  'models.list': call(
    none,
    z.object({
      dir: z.string(),
      catalogue: z.array(s.catalogueModel),
      installed: z.array(s.installedModel),
      downloading: z.array(z.string()),
    }),
    'The model catalogue, the installed models and the downloads in progress.',
  ),
  'models.pull': call(
    z.object({ id: z.string().regex(/^[A-Za-z0-9._-]+$/, 'not a catalogue id') }).strict(),
    z.object({ id: z.string(), path: z.string(), verified: z.boolean(), resumed: z.boolean() }),
    'Download a catalogue model (resumes a partial download; checksum checked); progress arrives as models.progress events.',
  ),
  'models.cancelPull': call(z.object({ id: z.string() }).strict(), z.object({ cancelled: z.boolean() }), 'Stop a download; the partial file is kept for resuming.'),
  'models.remove': call(
    z.object({ id: z.string().regex(/^[A-Za-z0-9._-]+$/, 'not an installed model id').refine((id) => !/^\.+$/.test(id), 'not an installed model id') }).strict(),
    z.object({ id: z.string(), file: z.string(), freedBytes: z.number() }),
    'Delete an installed model (a GGUF, or an embedding model folder) from the models folder; refused while the settings use it.',
  ),
  'models.import': call(
    z.object({ file: z.string().min(1, 'a .gguf file path is required') }).strict(),
    z.object({ id: z.string(), path: z.string() }),
    'Copy a GGUF file the user already has into the models folder.',
  ),
  'host.info': call(
    none,
    z.object({ host: z.enum(['electron', 'browser']), canPickFolder: z.boolean(), version: z.string() }),
    'Which shell hosts the UI and what it can do.',
  ),
  'host.pickFolder': call(none, z.string().nullable(), 'Native folder picker (Electron only); null when cancelled.'),
  'host.openInEditor': call(
    z.object({ docPath, docId, line: z.number().int().positive().optional() }).strict(),
    z.object({ file: z.string() }),
    "Open a note in the user's own editor (the system's opener for the file, or LOCI_OPEN_COMMAND).",
  ),
} as const;

export const events = {
  'index.progress': z.object({ root: z.string(), progress: s.indexProgress }),
  'index.report': z.object({ root: z.string(), report: s.indexReport }),
  /** A run that failed; a run the user stopped carries cancelled: true (shown as stopped, not as an error). */
  'index.error': z.object({ root: z.string(), message: z.string(), cancelled: z.boolean().optional() }),
  /**
   * A change of embedder under way (settings): the index is re-embedded for it, with progress, and the
   * new embedder answers once that is done; or why it failed (the previous one stays).
   */
  'embedder.switch': s.embedderSwitch,
  /** A background failure nothing else reports (an embedder switch, a model load); also in the log file. */
  'engine.error': z.object({ source: z.string(), message: z.string() }),
  /** The engine worked around a problem, or has something the user should know (see engine.warnings). */
  'engine.warning': z.object({ message: z.string() }),
  'answer.token': z.object({ streamId: z.string(), token: z.string() }),
  'models.progress': z.object({ id: z.string(), file: z.string(), received: z.number(), total: z.number().nullable(), resumed: z.boolean() }),
  /** The host asks the UI to show a view (the Electron menu's View items). */
  'ui.show': z.object({ view: z.enum(['library', 'ask', 'mindmap', 'graph', 'settings']) }),
} as const;

export type Calls = typeof calls;
export type CallName = keyof Calls;
export type EventName = keyof typeof events;
export type Req<K extends CallName> = z.input<Calls[K]['request']>;
export type ParsedReq<K extends CallName> = z.output<Calls[K]['request']>;
export type Res<K extends CallName> = z.output<Calls[K]['response']>;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

export const callNames = Object.keys(calls) as CallName[];
export const eventNames = Object.keys(events) as EventName[];

export function isCallName(name: unknown): name is CallName {
  return typeof name === 'string' && Object.hasOwn(calls, name);
}
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name);
}
