import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LociEngine } from '../../main/engine/engine.js';
import { openDb } from '../../main/engine/store/db.js';

// stats() counts the indexed notes by language (a detector's n-grams, not only the script), so the UI
// can offer an embedding model that reads them: German notes are not English ones.
const dir = mkdtempSync(join(tmpdir(), 'loci-stats-languages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeNotes(notes: string) {
  const write = (name: string, text: string | Buffer) => writeFileSync(join(notes, name), text);
  mkdirSync(notes, { recursive: true });
  write('roasting.md', '# Roasting\n\nA light roast keeps the acidity of a washed coffee, while a dark roast brings out bitterness and body.\n');
  write('grinder.md', '# Grinder\n\nA burr grinder gives an even grind for pour-over, and the grind size decides how fast the water flows.\n');
  write('茶.md', '# 乌龙茶\n\n乌龙茶是半发酵茶，产于福建和台湾，香气浓郁，回甘持久。\n');
  write('röstung.md', '# Röstung\n\nEine helle Röstung bewahrt die Säure eines gewaschenen Kaffees, während eine dunkle Röstung die Bitterkeit betont.\n');
  write('torréfaction.md', '# Torréfaction\n\nUne torréfaction claire garde l’acidité d’un café lavé, alors qu’une torréfaction foncée fait ressortir l’amertume.\n');
  // Only code: nothing tells its language.
  write('script.md', '```sh\nnpm ci && npm test\n```\n');
  write('scan.md', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0xff, 0xfe, 0, 1]));
}

describe('stats: the notes’ languages', () => {
  it('counts indexed notes per language, not per script, and not a skipped file', async () => {
    const notes = join(dir, 'notes');
    writeNotes(notes);
    const engine = await LociEngine.open({ dbPath: join(dir, 'index.db') });
    try {
      expect(engine.views.stats().languages).toEqual({});
      await engine.library.index(notes);
      const s = engine.views.stats();
      expect(s.counts.documents).toBe(6);
      expect(s.languages).toEqual({ en: 2, zh: 1, de: 1, fr: 1, und: 1 });
    } finally {
      await engine.close();
    }
  });

  it('judges an index’s notes again once, when it was built by a Loci that told only scripts apart', async () => {
    const notes = join(dir, 'old-notes');
    writeNotes(notes);
    const dbPath = join(dir, 'old.db');
    const first = await LociEngine.open({ dbPath });
    await first.library.index(notes);
    await first.close();
    // As the older Loci left it: Latin script as `en`, and no detector recorded.
    const db = openDb(dbPath);
    db.prepare("UPDATE documents SET lang = CASE WHEN lang = 'zh' THEN 'zh' ELSE 'en' END").run();
    db.prepare("DELETE FROM settings WHERE key = 'language_detector'").run();
    db.close();
    const engine = await LociEngine.open({ dbPath });
    try {
      expect(engine.views.stats().languages).toEqual({ en: 2, zh: 1, de: 1, fr: 1, und: 1 });
    } finally {
      await engine.close();
    }
    // Once: a value set since is kept on the next open.
    const again = openDb(dbPath);
    again.prepare("UPDATE documents SET lang = 'nl' WHERE rel_path = 'röstung.md'").run();
    again.close();
    const reopened = await LociEngine.open({ dbPath });
    try {
      expect(reopened.views.stats().languages.nl).toBe(1);
    } finally {
      await reopened.close();
    }
  });
});
