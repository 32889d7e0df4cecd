import { describe, expect, it } from 'vitest';
import { nextTimeLeft, TIME_LEFT_START, type TimeLeftState } from '../../main/engine/jobs/time-left.js';

/** Feeds (work, elapsed) pairs in order; returns every state. */
function run(points: [work: number, elapsed: number][]): TimeLeftState[] {
  const out: TimeLeftState[] = [];
  let s = TIME_LEFT_START;
  for (const [w, t] of points) out.push((s = nextTimeLeft(s, w, t)));
  return out;
}

describe('time left', () => {
  it('is unknown before any work is done, and zero once all of it is', () => {
    expect(nextTimeLeft(TIME_LEFT_START, 0, 5).left).toBeNull();
    expect(nextTimeLeft(TIME_LEFT_START, 1, 5).left).toBe(0);
  });

  it('at a steady pace, is exactly the work left at that pace', () => {
    // 1% a second: after 30 s, 70 s are left, and so on.
    const states = run(Array.from({ length: 60 }, (_, i) => [(i + 1) / 100, i + 1] as [number, number]));
    for (const [i, s] of states.entries()) expect(s.left).toBeCloseTo(100 - (i + 1), 6);
  });

  it('barely moves for one slow step, where the last step alone would double it', () => {
    const points: [number, number][] = Array.from({ length: 40 }, (_, i) => [(i + 1) / 100, i + 1]);
    // One step takes 5 s instead of 1 (a long note), then the pace is as before.
    points.push([0.41, 45]);
    const states = run(points);
    const before = states[39]!.left!;
    const after = states[40]!.left!;
    const lastStepOnly = (1 - 0.41) / (0.01 / 5);
    expect(after).toBeGreaterThan(before - 1);
    expect(after - before).toBeLessThan((lastStepOnly - before) / 3);
  });

  it('follows a lasting change of pace within a few half-lives', () => {
    // 1% a second for 20 s, then half that pace (the machine got busy) for 60 s.
    const points: [number, number][] = Array.from({ length: 20 }, (_, i) => [(i + 1) / 100, i + 1]);
    for (let i = 1; i <= 60; i++) points.push([0.2 + i * 0.005, 20 + i]);
    const last = run(points).at(-1)!;
    const atNewPace = (1 - 0.5) / 0.005;
    const atAverage = (1 - 0.5) / (0.5 / 80);
    expect(Math.abs(last.left! - atNewPace)).toBeLessThan(Math.abs(atAverage - atNewPace) / 4);
  });

  it('keeps its estimate when called twice at the same moment', () => {
    const a = nextTimeLeft(TIME_LEFT_START, 0.1, 10);
    expect(nextTimeLeft(a, 0.1, 10).left).toBeCloseTo(a.left!, 9);
  });
});
