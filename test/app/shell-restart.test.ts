import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createElectronMock } from './support/electron-mock.js';

// The Electron shell restarting a crashed engine process (main/app/main.ts with ELECTRON MOCKED — the
// binary cannot run here; the policy itself is tested as a pure class in restart-policy.test.ts).
const h = vi.hoisted(() => ({ mock: null as ReturnType<typeof createElectronMock> | null }));
vi.mock('electron', async () => {
  const { createElectronMock: create } = await import('./support/electron-mock.js');
  h.mock = create({ lock: true });
  return h.mock.module;
});

beforeAll(async () => {
  vi.useFakeTimers();
  await import('../../main/app/main.js');
  await vi.advanceTimersByTimeAsync(10);
});
afterAll(() => vi.useRealTimers());

const engineErrors = () =>
  h.mock!.windows[0]!.send.mock.calls.filter((c) => c[1] === 'engine.error').map((c) => (c[2] as { message: string }).message);

describe('engine crash handling in the shell (electron mocked)', () => {
  it('restarts a crashed engine after growing delays, telling the window each time', async () => {
    const m = h.mock!;
    expect(m.children).toHaveLength(1);
    const delays: number[] = [];
    for (let crash = 0; crash < 5; crash++) {
      const n = m.children.length;
      m.children[n - 1]!.emit('exit', 1);
      expect(m.children.length).toBe(n); // not at once
      let waited = 0;
      while (m.children.length === n && waited < 60_000) {
        await vi.advanceTimersByTimeAsync(50);
        waited += 50;
      }
      expect(m.children.length).toBe(n + 1);
      delays.push(waited);
    }
    for (let i = 1; i < delays.length; i++) expect(delays[i]!).toBeGreaterThan(delays[i - 1]!);
    expect(engineErrors()).toHaveLength(5);
    expect(engineErrors()[0]).toMatch(/stopped \(code 1\); restarting in 0\.5 s/);
    expect(m.dialog.showErrorBox).not.toHaveBeenCalled();
  });

  it('gives up after a crash loop: no more restarts, an error box and an engine.error event', async () => {
    const m = h.mock!;
    const n = m.children.length;
    m.children[n - 1]!.emit('exit', 1);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(m.children.length).toBe(n);
    expect(m.dialog.showErrorBox).toHaveBeenCalledWith('Loci engine stopped', expect.stringMatching(/keeps stopping .*6 times/));
    expect(engineErrors().at(-1)).toMatch(/will not restart it/);
  });
});
