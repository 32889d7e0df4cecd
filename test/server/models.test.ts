import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDispatcher, validatedEmit, type Handlers } from '../../main/contract/dispatcher.js';
import { modelHandlers } from '../../main/server/models.js';

// The contract's models.* calls over the real catalogue and the real tiny GGUF (downloads themselves
// need the internet and are tested where the downloader lives).
const GGUF = path.resolve('../shared/models/stories260K/stories260K.gguf');

function setup() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loci-models-'));
  const events: unknown[] = [];
  const models = modelHandlers(validatedEmit((_e, p) => events.push(p)), () => dir);
  const d = createDispatcher(models as Partial<Handlers>);
  return { dir, d };
}

describe('models.* calls', () => {
  it('lists the catalogue and an empty models folder', async () => {
    const { d, dir } = setup();
    const r = await d.dispatch('models.list', {});
    expect(r.ok).toBe(true);
    const list = (r as { result: { dir: string; catalogue: { id: string }[]; installed: unknown[] } }).result;
    expect(list.dir).toBe(dir);
    expect(list.catalogue.map((m) => m.id)).toContain('stories260K');
    expect(list.installed).toEqual([]);
  });

  it.skipIf(!existsSync(GGUF))('imports a real GGUF, which then shows as installed', async () => {
    const { d } = setup();
    const r = await d.dispatch('models.import', { file: GGUF });
    expect(r).toMatchObject({ ok: true, result: { id: 'stories260K' } });
    const list = await d.dispatch('models.list', {});
    expect((list as { result: { installed: { id: string; sizeBytes: number }[] } }).result.installed).toEqual([
      expect.objectContaining({ id: 'stories260K', sizeBytes: 1185376 }),
    ]);
  });

  it('refuses a file that is not a GGUF, unknown ids and bad ids, naming the call', async () => {
    const { d, dir } = setup();
    const fake = path.join(dir, 'notes.gguf');
    writeFileSync(fake, 'not a model');
    const r = await d.dispatch('models.import', { file: fake });
    expect(!r.ok && r.error.message).toMatch(/^loci call "models.import" failed: .*not a GGUF/);
    const unknown = await d.dispatch('models.pull', { id: 'no-such-model' });
    expect(!unknown.ok && unknown.error.message).toMatch(/not in the model catalogue/);
    const bad = await d.dispatch('models.pull', { id: '../../etc/passwd' });
    expect(!bad.ok && bad.error.message).toMatch(/"models.pull": invalid request — id: not a catalogue id/);
    expect(await d.dispatch('models.cancelPull', { id: 'stories260K' })).toEqual({ ok: true, result: { cancelled: false } });
  });
});
