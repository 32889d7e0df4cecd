import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopStart, settledEnd } from '../../main/engine/llm/loop-guard.mjs';
import { LocalLlamaProvider } from '../../main/engine/llm/local/local-provider.js';
import { tinyModelPath } from './helpers/tiny-model.js';

describe('loopStart', () => {
  it('finds a repeated line or sentence, or a run of one character, and only those', () => {
    const text = 'Note location: A\nThe lamp was lit in 1850.\nIt stands on a rock.\nThe lamp was lit in 1850.\nmore';
    expect(loopStart(text)).toBe(text.indexOf('The lamp was lit in 1850.', 20));
    expect(loopStart('Route: 1,7500000000000000000000000')).toBe('Route: 1,75'.length);
    expect(loopStart('abababababababababababababababababab')).toBe(0);
    const prose = 'Lily was sad and did not know what to do. Mom came. Lily was sad and did not know what to do. Then';
    expect(loopStart(prose)).toBe(prose.lastIndexOf('Lily was sad'));
    // Counting on is going round too: a line that differs from an earlier one only in its numbers.
    const counting = '- 0:45 pour to 150 g in circles.\n- 2:00 pour to 300 g in circles.\n- 3:00 pour';
    expect(loopStart(counting)).toBe(counting.indexOf('- 2:00'));
    // Short repeated lines, rules and a line still being written are not loops.
    expect(loopStart('- Yes\n- No\n- Yes\n--------------------------\nIt opened in 1962.\nIt opened in 1962.')).toBe(-1);
    expect(loopStart('It opened in 1962. It holds 1.5 million books. It opened in 1962')).toBe(-1);
  });
});

/**
 * A reply written one character at a time and streamed as the model process streams it under the loop
 * guard: what is settled goes out, and at a loop what comes before it. Fails if anything sent lies past the cut.
 */
function streamed(text: string): { pieces: string[]; cut: number } {
  const pieces: string[] = [];
  let sent = 0;
  for (let n = 1; n <= text.length; n++) {
    const written = text.slice(0, n);
    const cut = loopStart(written);
    if (cut >= 0) expect(cut, `cut at ${cut} after ${sent} characters were sent`).toBeGreaterThanOrEqual(sent);
    const end = cut >= 0 ? cut : settledEnd(written);
    if (end > sent) pieces.push(written.slice(sent, end));
    sent = Math.max(sent, end);
    if (cut >= 0) return { pieces, cut };
  }
  if (text.length > sent) pieces.push(text.slice(sent));
  return { pieces, cut: -1 };
}

describe('settledEnd', () => {
  it('lets a stream send a reply a sentence or a line at a time, and never what the loop guard then cuts', () => {
    const prose =
      'The lighthouse was lit in 1850 by the harbour board. It stands on a granite rock off the point. Its lamp burned whale oil at first. Then';
    const { pieces, cut } = streamed(prose);
    expect(cut).toBe(-1);
    expect(pieces.join('')).toBe(prose);
    // The reply went out while it was being written, not in one piece at its end.
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces[0]!.length).toBeLessThan(prose.indexOf('Then'));

    const loops = [
      'Lily was sad and did not know what to do. Mom came. Lily was sad and did not know what to do. Then more',
      '- 0:45 pour to 150 g in circles.\n- 2:00 pour to 300 g in circles.\n- 3:00 pour',
      'Route: 1,7500000000000000000000000000000000000000',
      // A run of one character and a stop: every "x。" ends a sentence, so sentences alone would have sent the run's start.
      'The roastery opened its doors in the spring of 1986. ' + 'x。'.repeat(20),
      'It opened in 1962. ' + 'ab'.repeat(30),
      // A letter outside the Basic Multilingual Plane is two UTF-16 units, one unit of a run.
      'The roastery opened its doors in the spring of 1986. ' + '\u{20000}。'.repeat(20),
    ];
    for (const text of loops) {
      const r = streamed(text);
      expect(r.cut, text).toBeGreaterThanOrEqual(0);
      expect(r.pieces.join(''), text).toBe(text.slice(0, r.cut));
    }
  });

  it('holds back the sentence still being written and the tail where a run may be starting', () => {
    const two = 'It opened in 1962, on a wet Monday in March. It holds one and a half million books';
    expect(settledEnd(two)).toBe('It opened in 1962, on a wet Monday in March.'.length);
    // A full stop is an end only once white space follows it ("1.5" is not one).
    expect(settledEnd('It opened in 1962, on a wet Monday in March; it holds 1.5 million books.')).toBe(0);
    expect(settledEnd('Short one.\nAnd')).toBe(0); // within the tail a run could still be starting
  });
});

describe('generation bounds on the real tiny model: stop at a loop, stop strings, a forced reply prefix', { timeout: 120_000 }, () => {
  let llm: LocalLlamaProvider;
  beforeAll(async () => {
    llm = await LocalLlamaProvider.open({ modelPath: await tinyModelPath(), threads: 1, sequences: 1 });
  });
  afterAll(async () => {
    await llm?.close();
  });

  it('stopOnLoop ends the reply where it starts repeating itself, with the loop cut off', async () => {
    const req = { prompt: 'Once upon a time, there was a little girl named Lily.', maxTokens: 400, temperature: 0, seed: 1 };
    const free = await llm.generate(req);
    // The story model at temperature 0 repeats itself within the bound: the guard has something to stop.
    expect(loopStart(free.text)).toBeGreaterThanOrEqual(0);
    const streamed: string[] = [];
    const guarded = await llm.generate({ ...req, stopOnLoop: true, onToken: (t) => streamed.push(t) });
    expect(loopStart(guarded.text)).toBe(-1);
    // The repeat is never streamed either: what was streamed is the text.
    expect(streamed.join('')).toBe(guarded.text);
    expect(free.text.startsWith(guarded.text)).toBe(true);
    expect(guarded.tokens).toBeLessThan(free.tokens);
  });

  it('a stop string ends the reply before it, and a response prefix starts it', async () => {
    const stopped = await llm.generate({ prompt: 'Tom and Lily went to the park.', maxTokens: 200, temperature: 0, stop: ['.'] });
    expect(stopped.text).not.toContain('.');
    expect(stopped.tokens).toBeLessThan(200);
    const prefixed = await llm.generate({ prompt: 'Tom and Lily went to the park.', maxTokens: 16, temperature: 0, responsePrefix: 'Then Tom' });
    expect(prefixed.text.startsWith('Then Tom')).toBe(true);
    expect(prefixed.text.length).toBeGreaterThan('Then Tom'.length);
  });
});
