import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LociEngine } from '../../main/engine/engine.js';
import { forgetReleasedReplies, keepReplies, keptRepliesByKey } from '../../main/engine/store/kept-replies.js';
import type { KeptReply } from '../../main/engine/extract/llm/piece-facts.js';

// A model reply outlives its note for a while (the model-pass tests show it reused), but not the library
// folder the note was in, and not RELEASED_DAYS. The replies here are stand-ins stored as the model
// pass stores them: only where they go is checked, not what a model wrote.
const reply = (fact: string): KeptReply => ({ routes: [{ route: 'Stand-in', facts: [fact] }], score: { kept: 1, dropped: 0 } }) as unknown as KeptReply;

describe('released model replies', () => {
  let dir: string;
  let engine: LociEngine;
  const released = () => engine.db.prepare('SELECT key FROM released_replies ORDER BY key').pluck().all() as string[];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'loci-released-'));
    await writeFile(join(dir, 'a.md'), '# A\n\nThe first note.\n');
    await writeFile(join(dir, 'b.md'), '# B\n\nThe second note.\n');
    engine = await LociEngine.open({ dbPath: join(dir, '.loci/index.db') });
    await engine.library.index(dir);
    const id = (rel: string) => engine.db.prepare('SELECT id FROM documents WHERE rel_path = ?').pluck().get(rel) as number;
    keepReplies(engine.db, id('a.md'), [{ key: 'a1', reply: reply('one') }, { key: 'a2', reply: reply('two') }]);
    keepReplies(engine.db, id('b.md'), [{ key: 'b1', reply: reply('three') }]);
  });
  afterEach(async () => {
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('are found by key after their note is removed, and forgotten after the days they are kept', async () => {
    await unlink(join(dir, 'a.md'));
    await engine.library.index(dir);
    expect(released()).toEqual(['a1', 'a2']);
    expect([...keptRepliesByKey(engine.db, ['a1', 'b1', 'zz']).keys()].sort()).toEqual(['a1', 'b1']);
    engine.db.prepare("UPDATE released_replies SET released_at = released_at - 31 * 86400 WHERE key = 'a1'").run();
    expect(forgetReleasedReplies(engine.db, { days: 30 })).toBe(1);
    expect(released()).toEqual(['a2']);
  });

  it('go with a note the folder’s scope now leaves out', async () => {
    await engine.library.setScope(dir, { include: [], exclude: ['a.md'] }).then((job) => job.done);
    expect(engine.db.prepare("SELECT count(*) FROM documents WHERE rel_path = 'a.md'").pluck().get()).toBe(0);
    expect(released()).toEqual([]);
    expect([...keptRepliesByKey(engine.db, ['a1', 'b1']).keys()]).toEqual(['b1']);
  });

  it('go with their library folder', async () => {
    await unlink(join(dir, 'a.md'));
    await engine.library.index(dir);
    expect(released()).toEqual(['a1', 'a2']);
    await engine.library.removeFolder(dir);
    expect(released()).toEqual([]);
    expect(engine.db.prepare('SELECT count(*) FROM kept_replies').pluck().get()).toBe(0);
  });
});
