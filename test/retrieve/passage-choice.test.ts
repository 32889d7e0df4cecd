import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { choosePassages, DEFAULT_PASSAGE_CHOICE, leadIns } from '../../main/engine/retrieve/passage-choice.js';
import { analyseQuery, bm25Ranking } from '../../main/engine/retrieve/query.js';
import { chunkDocuments } from '../../main/engine/retrieve/fusion.js';
import { createLociRetriever, lociRetriever } from '../../main/engine/retrieve/loci.js';
import { indexNotes, type IndexedNotes } from '../support/indexed-notes.js';

// Guides of several sections each, as documentation folders are: the explanation sits in a paragraph,
// and a section whose heading repeats the question's words holds a one-line code block.
const NOTES = {
  'serving.md': [
    '# Serving',
    '',
    'The editor needs a secure context. Browsers give service workers, the crypto API and the clipboard only to pages opened on localhost or over https, so the editor must be served from localhost or behind a certificate; this is a rule of the web platform, not a choice of ours.',
    '',
    '## Serving the editor over https',
    '',
    '```',
    'localhost https',
    '```',
    '',
    '## Ports',
    '',
    'Set another port in the settings file:',
    '',
    '```',
    'port = 4100',
    '```',
    '',
  ].join('\n'),
  'backups.md': ['# Backups', '', 'Copy the notes folder somewhere safe every night.', '', '## Restoring', '', 'Put the copy back and restart the server.', ''].join('\n'),
  'themes.md': ['# Themes', '', 'Pick a light or a dark theme in the settings.', '', '## Fonts', '', 'The editor font can be changed too.', ''].join('\n'),
};

describe('passage choice in long notes', () => {
  let notes: IndexedNotes | undefined;
  beforeAll(async () => {
    notes = await indexNotes('loci-passage-choice-', NOTES);
  }, 60_000);
  afterAll(() => notes?.close());

  const question = 'Why must the editor be served over https or from localhost?';
  const first = async (r: ReturnType<typeof createLociRetriever>) => {
    const ctx = notes!.ctx;
    ctx.cache.forgetQuestions();
    const { contexts } = await r(ctx, question, 4);
    return contexts[0]!;
  };

  it('shows the paragraph that explains, not the code line under a heading that repeats the question', async () => {
    const bm25Order = await first(createLociRetriever({ passageChoice: null }));
    expect(bm25Order.docPath).toBe('serving.md');
    expect(bm25Order.text).not.toContain('secure context');
    const chosen = await first(lociRetriever);
    expect(chosen.docPath).toBe('serving.md');
    expect(chosen.text).toContain('secure context');
  });

  it('keeps BM25’s passages, only reordered, and leaves a corpus of one-passage notes as BM25 ranks it', async () => {
    const ctx = notes!.ctx;
    const qa = await analyseQuery(ctx, question);
    const bm25 = bm25Ranking(ctx, qa, 50);
    const docOf = chunkDocuments(ctx);
    const chosen = choosePassages(ctx, qa, bm25, docOf).shown;
    expect(chosen.map((s) => s.id).sort((a, b) => a - b)).toEqual(bm25.map((s) => s.id).sort((a, b) => a - b));
    expect(chosen.map((s) => s.id)).not.toEqual(bm25.map((s) => s.id));
    expect(choosePassages(ctx, qa, bm25, docOf, { ...DEFAULT_PASSAGE_CHOICE, minPassagesPerNote: 100 }).shown).toBe(bm25);
  });

  it('reads a short passage ending in a colon as the lead-in of the passage after it under the same heading', async () => {
    const ctx = notes!.ctx;
    const rows = ctx.db.prepare('SELECT id, text FROM chunks ORDER BY id').all() as { id: number; text: string }[];
    const lead = rows.find((r) => r.text.trim().endsWith('settings file:'));
    const code = rows.find((r) => r.text.includes('port = 4100'));
    expect(lead && code).toBeTruthy();
    const found = leadIns(ctx, rows.map((r) => r.id));
    expect([...found]).toEqual([[lead!.id, code!.id]]);
  });
});
