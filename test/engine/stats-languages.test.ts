import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LociEngine } from '../../main/engine/engine.js';

// stats() counts the indexed notes by the language their letters show, so the UI can offer an embedding
// model that reads them.
const dir = mkdtempSync(join(tmpdir(), 'loci-stats-languages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('stats: the notes’ languages', () => {
  it('counts indexed notes per language, and not a skipped file', async () => {
    const notes = join(dir, 'notes');
    const write = (name: string, text: string | Buffer) => writeFileSync(join(notes, name), text);
    mkdirSync(notes, { recursive: true });
    write('roasting.md', '# Roasting\n\nA light roast keeps the acidity of a washed coffee.\n');
    write('grinder.md', '# Grinder\n\nA burr grinder gives an even grind for pour-over.\n');
    write('茶.md', '# 乌龙茶\n\n乌龙茶是半发酵茶，产于福建和台湾，香气浓郁，回甘持久。\n');
    write('notes.md', '# Notizen\n\nДобрый день. Καλημέρα. こんにちは、世界。\n');
    write('scan.md', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0xff, 0xfe, 0, 1]));
    const engine = await LociEngine.open({ dbPath: join(dir, 'index.db') });
    try {
      expect(engine.stats().languages).toEqual({ en: 0, zh: 0, other: 0 });
      await engine.index(notes);
      const s = engine.stats();
      expect(s.counts.documents).toBe(4);
      // Latin script counts as en; a note mostly in other scripts (Cyrillic, Greek, kana) as other.
      expect(s.languages).toEqual({ en: 2, zh: 1, other: 1 });
    } finally {
      await engine.close();
    }
  });
});
