// The contract's calls implemented over an engine (Node side only: hosts import this, the UI never does). Owns what a long-lived host adds on top of the
// engine: one index run per folder (cancellable), one watcher per folder, progress turned into events.
import path from 'node:path';
import type { CallName } from './contract.js';
import type { Handlers, Emit } from './dispatcher.js';
import type { EnginePort } from './engine-port.js';

export interface HostInfo {
  host: 'electron' | 'browser';
  canPickFolder: boolean;
  version: string;
  pickFolder?: () => Promise<string | null>;
}

type ModelCall = Extract<CallName, `models.${string}`>;
/** Model management lives beside the engine (main/server/models.ts); each host passes it in. */
export type ModelHandlers = Pick<Handlers, ModelCall>;

export interface EngineHandlers {
  handlers: Handlers;
  /** Start keeping a folder current (idempotent). */
  watch(root: string): void;
  /** Abort running index runs and stop watchers; the engine is left for the caller to close. */
  stop(): Promise<void>;
}

export function engineHandlers(engine: EnginePort, emit: Emit, host: HostInfo, models: ModelHandlers): EngineHandlers {
  const running = new Map<string, AbortController>();
  const watchers = new Map<string, { close(): Promise<void> }>();

  // With a model configured, fast mode has made the notes searchable and the model pass follows in the
  // background (phase 'llm' in the progress events); in fast mode refine resolves at once.
  function refineInBackground(root: string): void {
    engine.refine({ onProgress: (progress) => emit('index.progress', { root, progress }) }).catch((err) =>
      emit('index.error', { root, message: `model pass: ${err instanceof Error ? err.message : String(err)}` }),
    );
  }

  function watch(root: string): void {
    if (watchers.has(root)) return;
    try {
      const w = engine.watch(
        root,
        (report) => {
          emit('index.report', { root, report });
          refineInBackground(root);
        },
        (progress) => emit('index.progress', { root, progress }),
        (err) => emit('index.error', { root, message: err.message }),
      );
      watchers.set(root, w);
    } catch (err) {
      emit('index.error', { root, message: err instanceof Error ? err.message : String(err) });
    }
  }

  const handlers: Handlers = {
    ...models,
    'library.roots': () => engine.roots(),
    'library.documents': () => engine.documents(),
    'library.index': async ({ root: given, watch: keepWatching }) => {
      // One spelling per folder, so events, watchers and the roots list agree.
      const root = path.resolve(given);
      if (running.has(root)) throw new Error(`${root} is already being indexed`);
      const controller = new AbortController();
      running.set(root, controller);
      try {
        const report = await engine.index(root, {
          signal: controller.signal,
          onProgress: (progress) => emit('index.progress', { root, progress }),
        });
        emit('index.report', { root, report });
        refineInBackground(root);
        if (keepWatching) watch(root);
        return report;
      } catch (err) {
        emit('index.error', { root, message: err instanceof Error ? err.message : String(err), cancelled: controller.signal.aborted });
        throw err;
      } finally {
        running.delete(root);
      }
    },
    'library.cancelIndex': ({ root }) => {
      const controller = running.get(path.resolve(root));
      controller?.abort();
      return { cancelled: Boolean(controller) };
    },
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
    'settings.get': () => engine.settings(),
    'settings.describe': () => engine.describeSettings(),
    'settings.update': ({ patch }) => {
      engine.updateSettings(patch);
      // A newly chosen model starts on the notes that are already indexed.
      const [root] = engine.roots();
      if (patch.model && root) refineInBackground(root);
      return engine.settings();
    },
    'host.info': () => ({ host: host.host, canPickFolder: host.canPickFolder, version: host.version }),
    'host.pickFolder': async () => {
      if (!host.pickFolder) throw new Error('this host has no folder picker; type the folder path instead');
      return host.pickFolder();
    },
  };

  return {
    handlers,
    watch,
    async stop() {
      for (const c of running.values()) c.abort();
      await Promise.all([...watchers.values()].map((w) => w.close()));
      watchers.clear();
    },
  };
}
