import { describe, expect, it } from 'vitest';
import { RestartPolicy } from '../../main/app/restart-policy.js';

// The shell's rule for restarting a crashed engine process, as a pure class with a fake clock (the
// shell wiring that calls it is in shell-wiring.test.ts, where the electron module is mocked).
describe('engine restart policy', () => {
  it('restarts with exponential backoff, capped', () => {
    let t = 0;
    const p = new RestartPolicy({ maxRestarts: 10, windowMs: 1e9, baseDelayMs: 500, maxDelayMs: 4000, now: () => t });
    const delays = [];
    for (let i = 0; i < 6; i++) {
      t += 100;
      const d = p.onCrash();
      expect(d.restart).toBe(true);
      if (d.restart) delays.push(d.delayMs);
    }
    expect(delays).toEqual([500, 1000, 2000, 4000, 4000, 4000]);
  });

  it('gives up after too many crashes within the window, with a reason', () => {
    let t = 0;
    const p = new RestartPolicy({ maxRestarts: 3, windowMs: 60_000, now: () => t });
    for (let i = 0; i < 3; i++) expect(p.onCrash().restart).toBe(true);
    t += 1000;
    const last = p.onCrash();
    expect(last).toEqual({ restart: false, crashes: 4, reason: 'the engine stopped 4 times within 60 s' });
  });

  it('forgets crashes older than the window, so an engine that ran well gets its backoff back', () => {
    let t = 0;
    const p = new RestartPolicy({ maxRestarts: 2, windowMs: 10_000, baseDelayMs: 100, now: () => t });
    expect(p.onCrash()).toMatchObject({ restart: true, delayMs: 100 });
    expect(p.onCrash()).toMatchObject({ restart: true, delayMs: 200 });
    t += 20_000;
    expect(p.onCrash()).toMatchObject({ restart: true, delayMs: 100, attempt: 1 });
  });

  it('starts over after reset', () => {
    const p = new RestartPolicy({ maxRestarts: 1, now: () => 0 });
    expect(p.onCrash().restart).toBe(true);
    expect(p.onCrash().restart).toBe(false);
    p.reset();
    expect(p.onCrash().restart).toBe(true);
  });
});
