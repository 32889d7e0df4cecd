// The contract's engine calls over the engine's services, one line per call where the host adds nothing:
// request fields become the service's arguments. What the host adds is here too: a folder indexed with
// `watch` is kept current, an ask's tokens go out as answer.token events.
import type { LociEngine } from '../engine/engine.js';
import type { Emit } from '../contract/dispatcher.js';
import type { ContractServices } from './contract-services.js';

export type EngineCalls = Omit<ContractServices, 'models' | 'host'>;

export function engineServices(engine: LociEngine, emit: Emit, keepWatching: (root: string) => void): EngineCalls {
  const { library, answers, views, settings } = engine;
  return {
    library: {
      roots: () => library.roots(),
      folders: () => library.folders(),
      documents: () => views.documents(),
      tags: () => views.tags(),
      index: async ({ root, watch }) => {
        let job;
        try {
          job = library.startJob(root);
        } catch (err) {
          // A refused folder never became a job, so the engine has no job event to send: say it here.
          emit('index.error', { root, message: err instanceof Error ? err.message : String(err) });
          throw err;
        }
        const report = await job.searchable;
        if (watch && !report.cancelled) keepWatching(job.root);
        return report;
      },
      cancelIndex: ({ root }) => ({ cancelled: library.cancelJob(root) }),
      remove: async ({ root }) => ({ root, removed: (await library.removeFolder(root)).removed }),
      setScope: async ({ root, include, exclude }) => (await library.setScope(root, { include, exclude })).searchable,
      reindex: ({ root, docId }) => library.reindex(root, docId).searchable,
      completePath: ({ prefix, hidden }) => library.completePath(prefix, { hidden }),
      estimate: ({ embedder, root, refresh }) => engine.estimates.estimate(embedder, { root, refresh }),
    },
    engine: { warnings: () => engine.events.warnings() },
    ask: {
      ask: ({ question, method, k, chatId, streamId }) =>
        answers.ask(question, { method, k, chatId, id: streamId, onToken: streamId ? (token) => emit('answer.token', { streamId, token }) : undefined }),
      cancel: ({ streamId }) => ({ cancelled: answers.cancel(streamId) }),
    },
    notes: {
      mindMap: ({ docPath, docId }) => views.mindMap(docPath, docId),
      text: ({ docPath, docId }) => views.noteText(docPath, docId),
      related: ({ docId, limit }) => views.related(docId, { limit }),
      links: ({ docId }) => views.noteLinks(docId),
    },
    graph: {
      view: ({ limit }) => views.graph({ limit }),
      local: ({ docId, hops, limit }) => views.localGraph(docId, { hops, limit }),
      overview: ({ by }) => views.graphOverview(by),
      cluster: ({ id, by }) => views.graphCluster(id, by),
    },
    stats: { stats: () => views.stats() },
    chats: {
      list: () => answers.chats(),
      get: ({ id }) => answers.chat(id),
      delete: ({ id }) => {
        answers.deleteChat(id);
        return {};
      },
    },
    settings: {
      get: () => settings.get(),
      describe: () => settings.describe(),
      // A newly chosen model starts on the library's folders inside the engine (one job per folder).
      update: async ({ patch }) => {
        await settings.update(patch);
        return settings.get();
      },
    },
  };
}
