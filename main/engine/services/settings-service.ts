// User settings: read, described for a form, and changed — a new embedder switches in the background,
// a newly chosen model starts on the library's folders — and the models they keep in use.
import { describeSettings, DEFAULT_SETTINGS, writeSettings, type Settings } from '../settings.js';
import { modelsInSettings, type ModelsInUse } from '../llm/models/remove.js';
import { checkChatModel } from '../llm/check-model.js';
import type { SettingDescriptor } from '../../contract/shapes/settings.js';
import type { EngineContext } from './engine-context.js';
import type { EmbedderService } from './embedder-service.js';
import type { LanguageModel } from './language-model.js';
import type { LibraryService } from './library-service.js';

export class SettingsService {
  constructor(
    private readonly ctx: EngineContext,
    private readonly embedders: EmbedderService,
    private readonly model: LanguageModel,
    private readonly library: LibraryService,
  ) {}

  /** Every user setting with the value in force (stored, else its default). */
  get(): Settings {
    return this.ctx.settings();
  }

  /** Each setting's label, control, bounds and default (for a settings form). */
  describe(): SettingDescriptor[] {
    return describeSettings();
  }

  /**
   * Validates and stores settings. A chat model is checked before anything is stored. A new embedder is loaded before anything is stored (one that fails
   * stores nothing and throws); the index is then re-embedded for it in the background and the
   * embedder swapped only when that is done, so questions meanwhile keep using complete vectors (its
   * progress, and its end or failure, reach hosts as `embedder` events; a failed one puts the setting
   * back). A newly chosen model starts on the library's folders.
   */
  async update(patch: Record<string, unknown>): Promise<void> {
    this.ctx.assertWritable('change settings');
    const before = this.get();
    const wanted = typeof patch.embedder === 'string' ? patch.embedder.trim() || DEFAULT_SETTINGS.embedder : patch.embedder === null ? DEFAULT_SETTINGS.embedder : undefined;
    const model = typeof patch.model === 'string' ? patch.model.trim() : '';
    if (model && model !== before.model) await checkChatModel(model);
    const store = () => writeSettings(this.ctx.db, patch);
    if (wanted === undefined) store();
    else await this.embedders.choose(wanted, store);
    const after = this.get();
    if (after.model && after.model !== before.model && !this.model.override) this.library.indexAll();
  }

  /**
   * The models in use, so none is deleted: what the settings name, and also — mid-switch — the embedder
   * still in force (questions use it until the new one's vectors are complete) and a language model
   * opened under an earlier setting.
   */
  modelsInUse(): ModelsInUse {
    const stored = modelsInSettings(this.get());
    const unique = (specs: (string | null | undefined)[]) => [...new Set(specs.filter((x): x is string => !!x))];
    return {
      answers: unique([...stored.answers, this.model.spec(), this.model.openedSpec]),
      search: unique([...stored.search, this.embedders.spec, this.embedders.switchingTo]),
    };
  }
}
