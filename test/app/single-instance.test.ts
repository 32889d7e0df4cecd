import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createElectronMock } from './support/electron-mock.js';

// A second launch of the app (main/app/main.ts with ELECTRON MOCKED — the binary cannot run here): when
// the single-instance lock is held by another Loci, it quits and sets nothing up.
const h = vi.hoisted(() => ({ mock: null as ReturnType<typeof createElectronMock> | null }));
vi.mock('electron', async () => {
  const { createElectronMock: create } = await import('./support/electron-mock.js');
  h.mock = create({ lock: false });
  return h.mock.module;
});

beforeAll(async () => {
  await import('../../main/app/main.js');
  await new Promise((r) => setTimeout(r, 20));
});

describe('single-instance lock held elsewhere (electron mocked)', () => {
  it('quits without opening a window, starting an engine or registering IPC', () => {
    const m = h.mock!;
    expect(m.app.requestSingleInstanceLock).toHaveBeenCalled();
    expect(m.app.quit).toHaveBeenCalled();
    expect(m.app.whenReady).not.toHaveBeenCalled();
    expect(m.windows).toHaveLength(0);
    expect(m.utilityProcess.fork).not.toHaveBeenCalled();
    expect(m.module.ipcMain.handle).not.toHaveBeenCalled();
  });
});
