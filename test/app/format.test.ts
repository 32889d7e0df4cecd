import { describe, expect, it } from 'vitest';
import { timeLeft } from '../../main/cli/progress.js';
import { aboutDuration, formatEta } from '../../renderer/src/lib/format.js';

// A switch to a real embedder on a big library takes hours: its time left must read as hours.
describe('time left', () => {
  it('reads as a person says it in the app: seconds, then minutes, then hours and minutes', () => {
    expect(formatEta(0.4)).toBe('under a second left');
    expect(formatEta(59.6)).toBe('about 1 min 0 s left');
    expect(formatEta(599.7)).toBe('about 10 min left');
    expect(formatEta(2460)).toBe('about 41 min left');
    expect(formatEta(12_780)).toBe('about 3 h 33 min left');
    expect(formatEta(7170)).toBe('about 2 h 0 min left');
  });

  it('is compact on the command line, and says when it is not known yet', () => {
    expect(timeLeft(null)).toBe('…');
    expect(timeLeft(45)).toBe('45s');
    expect(timeLeft(725)).toBe('12m 05s');
    expect(timeLeft(3599.6)).toBe('1h 00m');
    expect(timeLeft(7170)).toBe('2h 00m');
    expect(timeLeft(12_780)).toBe('3h 33m');
  });
});

// An index-time estimate reads as a rough figure: never more precise than the probe behind it.
describe('estimated duration', () => {
  it('rounds to seconds, then whole minutes, then hours and minutes', () => {
    expect(aboutDuration(0.3)).toBe('under a second');
    expect(aboutDuration(4.4)).toBe('about 4 s');
    expect(aboutDuration(59.4)).toBe('about 59 s');
    expect(aboutDuration(184)).toBe('about 3 min');
    expect(aboutDuration(3569)).toBe('about 59 min');
    expect(aboutDuration(3600 + 25 * 60)).toBe('about 1 h 25 min');
  });
});
