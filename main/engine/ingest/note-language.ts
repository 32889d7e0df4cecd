// The language a note is written in (ISO 639-1), for what depends on it beyond its script: which
// embedding model to offer (MiniLM reads English, not German), a model pass's prompt language.
// Retrieval and fast extraction never read it: they decide per chunk by script (text/lang.ts).
import { eld } from 'eld/small';
import { detectLang } from '../text/lang.js';
import { UNDETERMINED_LANGUAGE } from '../types.js';
import type { Db } from '../store/db.js';
import { indexedProse, replaceLanguages } from '../store/languages.js';
import { getSetting, setSetting } from '../store/settings.js';
import { getLogger } from '../log.js';

/** Names the detector, so an index whose languages an older one judged is judged again (refreshNoteLanguages). */
export const LANGUAGE_DETECTOR = 'eld-small-2';
/** Settings key: the LANGUAGE_DETECTOR that judged the index's notes. */
const DETECTED_BY = 'language_detector';
/** Enough prose to tell a language by; more only costs time on long notes. */
const SAMPLE_CHARS = 2000;

/** The language of a note's prose (its chunks that are not code), or 'und' (UNDETERMINED_LANGUAGE). */
export function noteLanguage(prose: readonly string[]): string {
  const sample = prose.join('\n').slice(0, SAMPLE_CHARS);
  const result = eld.detect(sample);
  if (result.language && result.isReliable()) return result.language;
  // Too little text for n-grams to settle it: Chinese is still told apart by its script.
  return detectLang(sample) === 'zh' ? 'zh' : UNDETERMINED_LANGUAGE;
}

/** The chunks a language is told by: code says nothing of the note's language. */
export function proseOf(chunks: readonly { text: string; isCode: boolean }[]): string[] {
  return chunks.filter((c) => !c.isCode).map((c) => c.text);
}

/**
 * Judges every indexed note's language again when another detector judged it (an index from before
 * this one, which told only scripts apart: German counted as English). Once per detector; returns the
 * notes judged. Reads the stored chunks, so no file is read and nothing else is redone.
 */
export function refreshNoteLanguages(db: Db): number {
  if (getSetting<string | null>(db, DETECTED_BY, null) === LANGUAGE_DETECTOR) return 0;
  // Judged while reading, written after: the connection cannot write while a query iterates.
  // (10k news articles: 1.8 s, once.)
  const t0 = performance.now();
  const langs = [...indexedProse(db)].map(({ id, prose }) => ({ id, lang: noteLanguage(prose) }));
  db.transaction(() => {
    replaceLanguages(db, langs, UNDETERMINED_LANGUAGE);
    setSetting(db, DETECTED_BY, LANGUAGE_DETECTOR);
  })();
  if (langs.length) getLogger('engine').info({ notes: langs.length, detector: LANGUAGE_DETECTOR, ms: Math.round(performance.now() - t0) }, 'notes’ languages judged again');
  return langs.length;
}
