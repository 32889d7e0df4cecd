import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LociEngine } from '../../main/engine/engine.js';
import { SHARED_DATA } from '../fixtures/paths.js';

// How-to questions on the real SilverBullet and Foam docs (../shared/data, read in place): the extractive
// answer shows the step — the command or list under the sentence that leads into it — with its code spans,
// and an off-topic question is said not to be answered.
// LOCI_SHARED_DATA points at the data from a worktree that is not beside it.
const shared = join(process.env.LOCI_SHARED_DATA ?? SHARED_DATA, 'notes');
const hasShared = existsSync(join(shared, 'foam_docs')) && existsSync(join(shared, 'silverbullet_docs'));
if (!hasShared) console.warn(`[skip] ${shared} is absent: the answer-span checks on real docs need it.`);

let dir: string;
const engines: Record<string, LociEngine> = {};
beforeAll(async () => {
  if (!hasShared) return;
  dir = await mkdtemp(join(tmpdir(), 'loci-answer-spans-'));
  for (const name of ['foam_docs', 'silverbullet_docs']) {
    engines[name] = await LociEngine.open({ dbPath: join(dir, `${name}.db`) });
    await engines[name].library.index(join(shared, name));
  }
}, 240_000);
afterAll(async () => {
  for (const e of Object.values(engines)) await e.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const bulletWith = (text: string, needle: string) => text.split(/\n(?=- )/).find((b) => b.includes(needle));

describe.runIf(hasShared)('answers on the real docs', () => {
  it('Foam: turning telemetry off shows the lead-in with its steps, code spans kept', async () => {
    const a = await engines.foam_docs!.answers.ask('How do I turn off telemetry for the Foam command line tool?');
    expect(a.answerable).toBe(true);
    const bullet = bulletWith(a.text, 'You can change your choice at any time:');
    expect(bullet, a.text).toContain('\n  - Set `FOAM_TELEMETRY=0` in your environment, or');
  });

  it('SilverBullet: changing the port shows the command under the sentence that leads into it', async () => {
    const a = await engines.silverbullet_docs!.answers.ask('How do I change the port the SilverBullet server listens on?');
    const bullet = bulletWith(a.text, './silverbullet -p 3001');
    expect(bullet, a.text).toContain('To pick a different port, use `-p`:');
    expect(bullet, a.text).toMatch(/`http:\/\/localhost:3000`/);
  });

  it('says the docs do not answer an off-topic question', async () => {
    for (const e of Object.values(engines)) {
      const a = await e.answers.ask('What is the capital of Peru?');
      expect(a.answerable, a.text).toBe(false);
    }
  });
});
