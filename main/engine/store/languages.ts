// Notes by language (documents.lang): counted for the model offer, and judged again when the detector changes.
import type { Db } from './db.js';

/** Indexed notes per language (ISO 639-1, 'und' when it could not be told), most notes first. */
export function languageCounts(db: Db): Record<string, number> {
  const rows = db.prepare("SELECT lang, count(*) AS n FROM documents WHERE status = 'indexed' GROUP BY lang ORDER BY n DESC, lang").all() as { lang: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.lang, r.n]));
}

/** Each indexed note's prose chunks in order (code chunks say nothing of its language). */
export function* indexedProse(db: Db): Generator<{ id: number; prose: string[] }> {
  const rows = db
    .prepare("SELECT d.id, c.text FROM documents d JOIN chunks c ON c.document_id = d.id AND c.is_code = 0 WHERE d.status = 'indexed' ORDER BY d.id, c.ord")
    .iterate() as IterableIterator<{ id: number; text: string }>;
  let current: { id: number; prose: string[] } = { id: -1, prose: [] };
  for (const r of rows) {
    if (current.id !== r.id) {
      if (current.id !== -1) yield current;
      current = { id: r.id, prose: [] };
    }
    current.prose.push(r.text);
  }
  if (current.id !== -1) yield current;
}

/** Every indexed note's language, as given; a note not given (no prose) is undetermined. */
export function replaceLanguages(db: Db, langs: { id: number; lang: string }[], undetermined: string): void {
  const set = db.prepare('UPDATE documents SET lang = ? WHERE id = ?');
  db.transaction(() => {
    db.prepare("UPDATE documents SET lang = ? WHERE status = 'indexed'").run(undetermined);
    for (const l of langs) set.run(l.lang, l.id);
  })();
}
