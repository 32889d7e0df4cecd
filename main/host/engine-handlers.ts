// The contract's calls implemented over an engine (Node side only: hosts import this, the UI never
// does). The engine owns folder jobs (fast pass → model pass → graph), their cancellation and their
// events; this module turns engine events into contract events and keeps one watcher per folder.
import type { CallName } from '../contract/contract.js';
import type { Handlers, Emit } from '../contract/dispatcher.js';
import type { EnginePort } from './engine-port.js';
import { openInEditor } from './open-in-editor.js';

export interface HostInfo {
  host: 'electron' | 'browser';
  canPickFolder: boolean;
  version: string;
  pickFolder?: () => Promise<string | null>;
}

type ModelCall = Extract<CallName, `models.${string}`>;
/** Model management lives beside the engine (main/host/models.ts); each host passes it in. */
export type ModelHandlers = Pick<Handlers, ModelCall>;

export interface EngineHandlers {
  handlers: Handlers;
  /** Start keeping a folder current (idempotent). */
  watch(root: string): void;
  /** Stop watchers and stop forwarding events; the engine (which owns running jobs) is left for the caller to close. */
  stop(): Promise<void>;
}

export function engineHandlers(engine: EnginePort, emit: Emit, host: HostInfo, models: ModelHandlers): EngineHandlers {
  const watchers = new Map<string, { close(): Promise<void> }>();

  const unsubscribe = engine.subscribe((e) => {
    if (e.type === 'progress') emit('index.progress', { root: e.root, progress: e.progress });
    else if (e.type === 'report') emit('index.report', { root: e.root, report: e.report });
    else if (e.type === 'error') emit('index.error', { root: e.root, message: e.message });
    else if (e.type === 'embedder') {
      // The engine's event is the contract's shape with its type tag.
      const { type: _, ...change } = e;
      emit('embedder.switch', change);
    } else emit('engine.warning', { message: e.message });
  });

  function watch(root: string): void {
    if (watchers.has(root)) return;
    try {
      // Reports and progress reach the UI through the engine's events; errors of the watcher itself here.
      watchers.set(root, engine.watch(root, undefined, undefined, (err) => emit('index.error', { root, message: err.message })));
    } catch (err) {
      emit('index.error', { root, message: err instanceof Error ? err.message : String(err) });
    }
  }

  async function unwatch(root: string): Promise<void> {
    const w = watchers.get(root);
    watchers.delete(root);
    await w?.close();
  }

  const handlers: Handlers = {
    ...models,
    'library.roots': () => engine.roots(),
    'library.folders': () => engine.folders(),
    'library.documents': () => engine.documents(),
    'library.index': async ({ root, watch: keepWatching }) => {
      let job;
      try {
        job = engine.startJob(root);
      } catch (err) {
        // A refused folder never became a job, so the engine has no job event to send: say it here.
        emit('index.error', { root, message: err instanceof Error ? err.message : String(err) });
        throw err;
      }
      const report = await job.searchable;
      if (keepWatching && !report.cancelled) watch(job.root);
      return report;
    },
    'library.cancelIndex': ({ root }) => ({ cancelled: engine.cancelJob(root) }),
    'library.remove': async ({ root }) => {
      const r = await engine.removeFolder(root);
      await unwatch(root);
      return { root, removed: r.removed };
    },
    'library.setScope': async ({ root, include, exclude }) => (await engine.setScope(root, { include, exclude })).searchable,
    'library.reindex': ({ root, docId }) => engine.reindex(root, docId).searchable,
    'library.completePath': ({ prefix, hidden }) => engine.completePath(prefix, { hidden }),
    'engine.warnings': () => engine.warnings(),
    ask: ({ question, method, k, chatId, streamId }) =>
      engine.ask(question, {
        method,
        k,
        chatId,
        onToken: streamId ? (token) => emit('answer.token', { streamId, token }) : undefined,
      }),
    'notes.mindMap': ({ docPath, docId }) => engine.mindMap(docPath, docId),
    'notes.text': ({ docPath, docId }) => engine.noteText(docPath, docId),
    'graph.view': ({ limit }) => engine.graph({ limit }),
    'graph.local': ({ docId, hops, limit }) => engine.localGraph(docId, { hops, limit }),
    'notes.related': ({ docId, limit }) => engine.related(docId, { limit }),
    stats: () => engine.stats(),
    'chats.list': () => engine.chats(),
    'chats.get': ({ id }) => engine.chat(id),
    'chats.delete': ({ id }) => {
      engine.deleteChat(id);
      return {};
    },
    'settings.get': () => engine.settings(),
    'settings.describe': () => engine.describeSettings(),
    // A newly chosen model starts on the library's folders inside the engine (one job per folder).
    'settings.update': async ({ patch }) => {
      await engine.updateSettings(patch);
      return engine.settings();
    },
    'host.info': () => ({ host: host.host, canPickFolder: host.canPickFolder, version: host.version }),
    'host.openInEditor': async ({ docPath, docId, line }) => {
      const { real } = await engine.noteFile(docPath, docId);
      await openInEditor(real, line);
      return { file: real };
    },
    'host.pickFolder': async () => {
      if (!host.pickFolder) throw new Error('this host has no folder picker; type the folder path instead');
      return host.pickFolder();
    },
  };

  return {
    handlers,
    watch,
    async stop() {
      unsubscribe();
      await Promise.all([...watchers.values()].map((w) => w.close()));
      watchers.clear();
    },
  };
}
