import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { choosePassages, DEFAULT_PASSAGE_CHOICE } from '../../main/engine/retrieve/passage-choice.js';
import { analyseQuery, bm25Ranking } from '../../main/engine/retrieve/query.js';
import { chunkDocuments } from '../../main/engine/retrieve/rank-fusion.js';
import { createLociRetriever, lociRetriever } from '../../main/engine/retrieve/loci/retriever.js';
import { indexNotes, type IndexedNotes } from '../support/indexed-notes.js';

// A plug's source listing uses the question's everyday words as identifiers; another guide says in prose
// what the question asks.
const NOTES = {
  'renderer.md': [
    '# Renderer',
    '',
    'Draws diagrams from fenced blocks for any user.',
    '',
    '## Implementation',
    '',
    '```lua',
    'local function run(user, group, id)',
    '  local path = user .. group .. id',
    '  for _, item in ipairs(queue(user, group)) do',
    '    draw(item.id, path, group, user)',
    '  end',
    '  return run(user, group, id)',
    'end',
    '```',
    '',
  ].join('\n'),
  'process.md': [
    '# Process',
    '',
    '## Owner',
    '',
    'The process can run as another account: set OWNER_UID to the user id and OWNER_GID to the group id it should have.',
    '',
    '## Logs',
    '',
    'Logs are written to the data folder.',
    '',
  ].join('\n'),
  'themes.md': ['# Themes', '', 'Pick a light or a dark theme.', '', '## Fonts', '', 'The font can be changed too.', ''].join('\n'),
};

describe('code blocks in the note ranking', () => {
  let notes: IndexedNotes | undefined;
  beforeAll(async () => {
    notes = await indexNotes('loci-code-ranking-', NOTES);
  }, 60_000);
  afterAll(() => notes?.close());

  const question = 'How can I run it as a particular user and group id?';
  const firstNote = async (r: ReturnType<typeof createLociRetriever>) => {
    const ctx = notes!.ctx;
    ctx.cache.forgetQuestions();
    return (await r(ctx, question, 4)).contexts[0]?.docPath;
  };

  it('ranks the note whose prose answers above a code listing that holds the words as identifiers', async () => {
    // With code read as prose, the listing's repeated identifiers win.
    expect(await firstNote(createLociRetriever({ passageChoice: { ...DEFAULT_PASSAGE_CHOICE, codeWeight: 1 } }))).toBe('renderer.md');
    expect(await firstNote(lociRetriever)).toBe('process.md');
  });

  it('leaves which passage shows a note as passage choice orders them', async () => {
    const ctx = notes!.ctx;
    ctx.cache.forgetQuestions();
    const qa = await analyseQuery(ctx, question);
    const bm25 = bm25Ranking(ctx, qa, 50);
    const docOf = chunkDocuments(ctx);
    const noCode = { ...DEFAULT_PASSAGE_CHOICE, codeWeight: 0 };
    const { shown, noteOrder: forNotes } = choosePassages(ctx, qa, bm25, docOf);
    expect(choosePassages(ctx, qa, bm25, docOf, noCode).shown).toEqual(shown);
    expect(forNotes.map((s) => s.id).sort((a, b) => a - b)).toEqual(bm25.map((s) => s.id).sort((a, b) => a - b));
    expect(docOf.get(forNotes[0]!.id)).not.toBe(docOf.get(shown[0]!.id));
  });
});
