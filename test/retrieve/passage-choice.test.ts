import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { choosePassages, DEFAULT_PASSAGE_CHOICE } from '../../main/engine/retrieve/passage-choice.js';
import { analyseQuery, bm25Ranking } from '../../main/engine/retrieve/query.js';
import { chunkDocuments } from '../../main/engine/retrieve/rank-fusion.js';
import { createLociRetriever, lociRetriever } from '../../main/engine/retrieve/loci/retriever.js';
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

  it('shows BM25’s own first passage beside the one passage choice put first, where it counts as near the top', async () => {
    const ctx = notes!.ctx;
    const texts = async (withBm25First: boolean) => {
      ctx.cache.forgetQuestions();
      const { contexts } = await createLociRetriever({ passages: { withinTop: 1, withBm25First } })(ctx, question, 4);
      return contexts.filter((c) => c.docPath === 'serving.md').map((c) => c.text);
    };
    // BM25 puts the code line under the heading that repeats the question first; passage choice the paragraph.
    const without = await texts(false);
    expect(without[0]).toContain('secure context');
    expect(without.some((t) => t.includes('localhost https'))).toBe(false);
    const withFirst = await texts(true);
    expect(withFirst[0]).toContain('secure context');
    expect(withFirst.some((t) => t.includes('localhost https'))).toBe(true);
  });

  it('shows a passage that introduces a code block with the block, its section being one span', async () => {
    const ctx = notes!.ctx;
    ctx.cache.forgetQuestions();
    const { contexts } = await lociRetriever(ctx, 'How do I set another port?', 4);
    const ports = contexts.find((c) => c.text.includes('Set another port'));
    expect(ports?.text).toContain('port = 4100');
    expect(ports?.factPath).toBe('Serving › Ports');
    // The code block is not shown a second time as a passage of its own.
    expect(contexts.filter((c) => c.text.includes('port = 4100'))).toHaveLength(1);
  });
});
