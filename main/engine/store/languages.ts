// Notes by language (documents.lang): counted for the model offer, judged after notes are written.
import type { Db } from './db.js';
import { UNJUDGED_LANGUAGE } from '../types.js';

/** Judged indexed notes per language (ISO 639-1, 'und' when it could not be told), most notes first. */
export function languageCounts(db: Db): Record<string, number> {
  const rows = db
    .prepare("SELECT lang, count(*) AS n FROM documents WHERE status = 'indexed' AND lang <> ? GROUP BY lang ORDER BY n DESC, lang")
    .all(UNJUDGED_LANGUAGE) as { lang: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.lang, r.n]));
}

// The notes awaiting judgement are found by migration 8's partial index, which SQLite uses only for a
// query that spells its condition (lang = '', UNJUDGED_LANGUAGE) as a literal; so are they marked.
export function hasUnjudgedLanguages(db: Db): boolean {
  return db.prepare("SELECT 1 FROM documents WHERE lang = '' AND status = 'indexed' LIMIT 1").get() !== undefined;
}

/**
 * The prose chunks, in order, of each indexed note not judged yet (none for a note of code alone), each
 * cut to `sampleChars`: a judgement reads no more of a note, and after a detector change every note is read.
 */
export function unjudgedProse(db: Db, sampleChars: number): { id: number; prose: string[] }[] {
  const rows = db
    .prepare(
      `SELECT d.id, substr(c.text, 1, ?) AS text FROM documents d LEFT JOIN chunks c ON c.document_id = d.id AND c.is_code = 0
        WHERE d.lang = '' AND d.status = 'indexed' ORDER BY d.id, c.ord`,
    )
    .all(sampleChars) as { id: number; text: string | null }[];
  const notes = new Map<number, string[]>();
  for (const r of rows) {
    const prose = notes.get(r.id) ?? [];
    if (r.text !== null) prose.push(r.text);
    notes.set(r.id, prose);
  }
  return [...notes].map(([id, prose]) => ({ id, prose }));
}

/** Marks every indexed note as not judged (another detector judged them). */
export function forgetLanguages(db: Db): void {
  db.prepare("UPDATE documents SET lang = '' WHERE status = 'indexed'").run();
}

export function setLanguages(db: Db, langs: { id: number; lang: string }[]): void {
  const set = db.prepare('UPDATE documents SET lang = ? WHERE id = ?');
  db.transaction(() => {
    for (const l of langs) set.run(l.lang, l.id);
  })();
}
