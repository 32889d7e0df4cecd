// Which installed model a catalogue entry is, and the settings change that puts it to work: a language
// model writes answers (`model`), an embedding model embeds the notes and questions (`embedder`).
import type { Res } from '../../../main/contract/contract.js';
import { languageName } from './languages.js';

type Listed = Res<'models.list'>;
export type CatalogueModel = Listed['catalogue'][number];
export type InstalledModel = Listed['installed'][number];
export type ModelSetting = { model: string } | { embedder: string };

/** The installed copy of a catalogue model (models.list says which entry each installed model is). */
export function installedCopy(model: CatalogueModel, installed: readonly InstalledModel[]): InstalledModel | undefined {
  return installed.find((i) => i.catalogueId === model.id);
}

/** The settings change that uses an installed model. */
export function settingFor(model: CatalogueModel, copy: InstalledModel): ModelSetting {
  return copy.embedder !== null ? { embedder: copy.embedder } : { model: model.id };
}

/** Whether the settings already use it. */
export function inUse(settings: Record<string, unknown> | null | undefined, setting: ModelSetting): boolean {
  return !!settings && Object.entries(setting).every(([key, value]) => settings[key] === value);
}

/** Installed embedding models as choices for the embedder setting (the spec, named by the model's id). */
export function embedderChoices(installed: readonly InstalledModel[] | null | undefined): { value: string; label: string }[] {
  return (installed ?? []).flatMap((m) => (m.embedder !== null ? [{ value: m.embedder, label: `${m.id} (installed)` }] : []));
}

/** Why an installed model cannot be removed, or null when it can. */
export function removalRefusal(copy: InstalledModel): string | null {
  return copy.inUse ? `In use for ${copy.inUse}: choose another ${copy.inUse === 'search' ? 'embedder' : 'model'} first` : null;
}

/** The button that uses it, by what it does ("In use" once it does). */
export function actionLabel(setting: ModelSetting, used: boolean): string {
  if (used) return 'In use';
  return 'embedder' in setting ? 'Use for search' : 'Use for answers';
}

/** What happens once it is in use. */
export function inUseNotice(setting: ModelSetting, name: string): string {
  return 'embedder' in setting
    ? `${name} now embeds your notes: the index is re-embedded in the background, and questions use the previous vectors until that is done.`
    : `${name} now writes the answers.`;
}

type Languages = Res<'stats'>['languages'];

/** A language counts when at least this share of the notes is written in it. */
const LANGUAGE_SHARE = 0.2;

/** Whether a model reads text in a language (a catalogue entry may say it reads many). */
const readsLanguage = (m: CatalogueModel, code: string) => m.languages.includes(code) || m.languages.includes('multilingual');

/**
 * The embedding model to offer for this library: the catalogue's recommended one when it reads the
 * notes' languages, else the first that reads them all (a folder of Chinese or German notes gets a model
 * that reads them, not the English-only recommendation, which Loci would give little weight there).
 * With the reason, when the pick is not the catalogue's own.
 */
export function embedderOffer(catalogue: readonly CatalogueModel[], languages: Languages | null | undefined): { model: CatalogueModel; reason: string | null } | null {
  const embedding = catalogue.filter((m) => m.role === 'embedding');
  const recommended = embedding.find((m) => m.recommended) ?? embedding[0];
  if (!recommended) return null;
  const counts = Object.entries(languages ?? {});
  const total = counts.reduce((sum, [, n]) => sum + n, 0);
  // Undetermined notes (too short to tell) speak for no language.
  const wanted = counts.filter(([code, n]) => code !== 'und' && total > 0 && n / total >= LANGUAGE_SHARE).sort((a, b) => b[1] - a[1]);
  const reads = (m: CatalogueModel) => wanted.every(([code]) => readsLanguage(m, code));
  if (reads(recommended)) return { model: recommended, reason: null };
  const pick = embedding.find(reads);
  if (!pick) return { model: recommended, reason: null };
  const shares = wanted.map(([code, n]) => `${Math.round((100 * n) / total)}% ${languageName(code)}`).join(', ');
  return { model: pick, reason: `Chosen for your notes (${shares}): ${recommended.name} reads ${recommended.languages.map(languageName).join(', ')} only.` };
}
