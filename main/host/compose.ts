// One host for every process that serves the contract (the Electron engine process, browser mode):
// the engine's services, the model tools and the host's own calls as the dispatcher's handlers; the
// engine's events as contract events; every library folder kept current.
import type { LociEngine } from '../engine/engine.js';
import { onEngineError } from '../engine/log.js';
import type { Emit, Handlers } from '../contract/dispatcher.js';
import { handlersFrom } from './contract-services.js';
import { engineServices } from './engine-services.js';
import { modelService } from './models.js';
import { openInEditor } from './open-in-editor.js';

export interface HostInfo {
  host: 'electron' | 'browser';
  canPickFolder: boolean;
  version: string;
  pickFolder?: () => Promise<string | null>;
}

export interface ComposeOptions {
  engine: LociEngine;
  /** Validated events out to the UI (validatedEmit over the process's transport). */
  emit: Emit;
  host: HostInfo;
  /** The models folder (tests); default: the user's. */
  modelsDir?: () => string;
}

export interface Host {
  handlers: Handlers;
  /** Keeps a folder current (idempotent; a folder that cannot be watched is reported as its index.error). */
  watch(root: string): void;
  /** Keeps every library folder current. */
  watchLibrary(): void;
  /** Stops downloads and event forwarding; the engine (which owns jobs and watchers) is left for the caller to close. */
  stop(): void;
}

export function composeHost({ engine, emit, host, modelsDir }: ComposeOptions): Host {
  const unsubscribe = engine.events.subscribe((e) => {
    if (e.type === 'progress') emit('index.progress', { root: e.root, progress: e.progress });
    else if (e.type === 'report') emit('index.report', { root: e.root, report: e.report });
    else if (e.type === 'error') emit('index.error', { root: e.root, message: e.message });
    else if (e.type === 'embedder') {
      // The engine's event is the contract's shape with its type tag.
      const { type: _, ...change } = e;
      emit('embedder.switch', change);
    } else emit('engine.warning', { message: e.message });
  });
  const offEngineErrors = onEngineError((problem) => emit('engine.error', problem));

  const keepWatching = (root: string) => {
    try {
      engine.library.keepWatching(root);
    } catch (err) {
      emit('index.error', { root, message: err instanceof Error ? err.message : String(err) });
    }
  };
  const models = modelService(emit, () => engine.settings.modelsInUse(), modelsDir);
  const handlers = handlersFrom({
    ...engineServices(engine, emit, keepWatching),
    models,
    host: {
      info: () => ({ host: host.host, canPickFolder: host.canPickFolder, version: host.version }),
      openInEditor: async ({ docPath, docId, line }) => {
        const { real } = await engine.views.noteFile(docPath, docId);
        await openInEditor(real, line);
        return { file: real };
      },
      pickFolder: async () => {
        if (!host.pickFolder) throw new Error('this host has no folder picker; type the folder path instead');
        return host.pickFolder();
      },
    },
  });

  return {
    handlers,
    watch: keepWatching,
    watchLibrary: () => engine.library.roots().forEach(keepWatching),
    stop() {
      unsubscribe();
      offEngineErrors();
      models.stop();
    },
  };
}
