// The language a note is written in (ISO 639-1), for what depends on it beyond its script: which
// embedding model to offer (MiniLM reads English, not German), and which common words a question in
// that language leaves out (retrieve/query.ts). Fast extraction and a model pass's prompts never read
// it: they go by script (text/lang.ts).
import { detectLang } from '../text/lang.js';
import { UNDETERMINED_LANGUAGE } from '../types.js';
import type { Db } from '../store/db.js';
import { forgetLanguages, hasUnjudgedLanguages, setLanguages, unjudgedProse } from '../store/languages.js';
import { getSetting, setSetting } from '../store/settings.js';
import { getLogger } from '../log.js';

/** Names the detector, so an index whose languages an older one judged is judged again (judgeNoteLanguages). */
export const LANGUAGE_DETECTOR = 'eld-extrasmall-2';
/** Settings key: the LANGUAGE_DETECTOR that judged the index's notes. */
const DETECTED_BY = 'language_detector';
/** Enough prose to tell a language by; more only costs time on long notes. */
const SAMPLE_CHARS = 2000;

type Detector = Awaited<typeof import('eld/extrasmall')>['eld'];
let detector: Promise<Detector> | null = null;
/**
 * Loaded on first use: its n-gram tables take a quarter of a second to load, which `loci ask` and a
 * window that only searches should not pay. (The extra-small tables: the same languages, and the same
 * judgement on every note of the docs folders, the news and the Wikipedia paragraphs in the tests.)
 */
const loadDetector = () => (detector ??= import('eld/extrasmall').then((m) => m.eld));

/** The language of a note's prose (its chunks that are not code), or 'und' (UNDETERMINED_LANGUAGE). */
export async function noteLanguage(prose: readonly string[]): Promise<string> {
  return languageBy(await loadDetector(), prose);
}

/** The language of a short text such as a question, or null where the detector cannot tell it. */
export async function textLanguage(text: string): Promise<string | null> {
  const result = (await loadDetector()).detect(text);
  return result.language && result.isReliable() ? result.language : null;
}

function languageBy(detector: Detector, prose: readonly string[]): string {
  const sample = prose.join('\n').slice(0, SAMPLE_CHARS);
  const result = detector.detect(sample);
  if (result.language && result.isReliable()) return result.language;
  // Too little text for n-grams to settle it: Chinese is still told apart by its script.
  return detectLang(sample) === 'zh' ? 'zh' : UNDETERMINED_LANGUAGE;
}

/** The chunks a language is told by: code says nothing of the note's language. */
export function proseOf(chunks: readonly { text: string; isCode: boolean }[]): string[] {
  return chunks.filter((c) => !c.isCode).map((c) => c.text);
}

/**
 * Judges the language of every indexed note that has none yet: the notes written since (the graph step
 * calls this), or all of them when another detector judged them (an index from before this one, which
 * told only scripts apart: German counted as English). Reads the stored chunks. Returns the notes judged.
 */
export async function judgeNoteLanguages(db: Db): Promise<number> {
  if (getSetting<string | null>(db, DETECTED_BY, null) !== LANGUAGE_DETECTOR) {
    db.transaction(() => {
      forgetLanguages(db);
      setSetting(db, DETECTED_BY, LANGUAGE_DETECTOR);
    })();
  }
  // Only then loaded: opening an index whose notes are all judged (every `loci ask`) does not load it.
  if (!hasUnjudgedLanguages(db)) return 0;
  const loaded = await loadDetector();
  // Read, judged and written with no await between: no note can change in the meantime.
  const t0 = performance.now();
  const langs = unjudgedProse(db, SAMPLE_CHARS).map(({ id, prose }) => ({ id, lang: languageBy(loaded, prose) }));
  setLanguages(db, langs);
  // 10k news articles at once: 1.8 s.
  if (langs.length > 1000) getLogger('engine').info({ notes: langs.length, detector: LANGUAGE_DETECTOR, ms: Math.round(performance.now() - t0) }, 'notes’ languages judged');
  return langs.length;
}
