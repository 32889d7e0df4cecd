import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractiveAnswer } from '../../main/engine/answer/extractive.js';
import { passageSpans, spanContexts } from '../../main/engine/retrieve/passage-spans.js';
import { indexNotes, type IndexedNotes } from '../support/indexed-notes.js';

// A context that shows a passage with the rest of its section (passage-spans.ts): the facts on the
// lines it shows count as retrieved, like those of the passage retrieval found.
const GUIDE = [
  '# Guide',
  '',
  '## Sync',
  '',
  'Configure it in your settings:',
  '',
  '```json',
  '{ "guide.sync": "hourly" }',
  '```',
  '',
  'The sync interval is kept in the backup file.',
  '',
  '## Backups',
  '',
  'The sync interval is kept in the settings file.',
  '',
].join('\n');

describe('facts on the lines a context shows', () => {
  let notes: IndexedNotes | undefined;
  beforeAll(async () => {
    notes = await indexNotes('loci-shown-lines-', { 'guide.md': GUIDE });
  }, 60_000);
  afterAll(() => notes?.close());

  it('lead over an equal fact of the same note outside them', async () => {
    const rows = notes!.db.prepare('SELECT id, text FROM chunks ORDER BY ord').all() as { id: number; text: string }[];
    const leadIn = rows.find((r) => r.text.includes('Configure it'))!.id;
    const contexts = spanContexts(notes!.db, [{ id: leadIn, score: 1 }], passageSpans(notes!.db, [leadIn]));
    const lines = GUIDE.split('\n');
    // The span runs from the lead-in over the JSON to the sentence after it, not into "Backups".
    expect(lines.slice(contexts[0]!.lineFrom - 1, contexts[0]!.lineTo).join('\n')).toContain('backup file');
    expect(contexts[0]!.lineTo).toBeLessThan(lines.indexOf('## Backups') + 1);
    const a = await extractiveAnswer(notes!.ctx, 'Where is the sync interval kept?', contexts);
    const order = a.citations.map((c) => c.text);
    // Worded alike; without the shown lines counted, the fact outside them ("settings") came first.
    const inSpan = order.findIndex((t) => t.includes('backup file'));
    const outside = order.findIndex((t) => t.includes('settings file'));
    expect(inSpan, JSON.stringify(order)).toBeGreaterThanOrEqual(0);
    expect(outside === -1 || inSpan < outside, JSON.stringify(order)).toBe(true);
  });
});
