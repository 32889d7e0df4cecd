import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractFast } from '../../main/engine/extract/fast/index.js';
import { parseNote } from '../../main/engine/ingest/parse.js';
import type { ExtractedFci } from '../../main/engine/types.js';
import { indexNotes, type IndexedNotes } from '../support/indexed-notes.js';
import { citationHolding, NEIGHBOUR_NOTES } from '../support/list-answers.js';

// Items too short to be facts on their own ("- Windows") reach the facts with the sentence that leads
// them in, as one fact citing the lead-in's line through the last item's, so an answer can show a list.

const INSTALL = [
  '# Install', //                                                        1
  '', //                                                                 2
  'Loci is a desktop app for notes kept as plain files.', //              3
  '', //                                                                 4
  'Loci runs on:', //                                                    5
  '', //                                                                 6
  '- Linux (x86_64)', //                                                 7
  '- macOS', //                                                          8
  '- Windows', //                                                        9
  '', //                                                                10
  'See also:', //                                                       11
  '', //                                                                12
  '- [[Sync]]', //                                                      13
  '- [[Backups]]', //                                                   14
  '', //                                                                15
  'The outline of a talk:', //                                          16
  '', //                                                                17
  '- Intro', //                                                         18
  '  - Why plain files', //                                             19
  '- Demo', //                                                          20
  '', //                                                                21
  'What the first run does:', //                                        22
  '', //                                                                23
  '- It scans the notes folder and reads every Markdown file.', //      24
  '- It builds the index on the first start and keeps it current.', // 25
  '',
].join('\n');

function factsOf(content: string): ExtractedFci[] {
  return extractFast(parseNote('Install.md', content)).fcis;
}

describe('short list items in fast mode', () => {
  it('makes a lead-in and its short items one fact, citing the lines from the lead-in to the last item', () => {
    const fcis = factsOf(INSTALL);
    const list = fcis.find((f) => f.text.startsWith('Loci runs on:'));
    expect(list, JSON.stringify(fcis.map((f) => f.text))).toBeDefined();
    expect(list!.text).toBe('Loci runs on: Linux (x86_64); macOS; Windows');
    expect([list!.lineFrom, list!.lineTo]).toEqual([5, 9]);
    // The lead-in is not also a fact of its own, and the items are not facts alone.
    expect(fcis.filter((f) => f.text.includes('Windows'))).toHaveLength(1);
  });

  it('leaves link lists, nested outlines and lists of full sentences as they were', () => {
    const texts = factsOf(INSTALL).map((f) => f.text);
    expect(texts.some((t) => t.includes('Sync') || t.includes('Backups'))).toBe(false);
    expect(texts.some((t) => t.includes('Intro') || t.includes('Demo'))).toBe(false);
    // Items that are statements stay one fact each; their lead-in is not glued to them.
    expect(texts).toContain('It scans the notes folder and reads every Markdown file.');
    expect(texts).toContain('It builds the index on the first start and keeps it current.');
    expect(texts.some((t) => t.startsWith('What the first run does:') && t.length > 'What the first run does:'.length)).toBe(false);
  });

  it('keeps a list too long for one fact out, rather than making a fact an answer cannot show', () => {
    const items = Array.from({ length: 40 }, (_, i) => `- Plugin number ${i + 1}`);
    const texts = factsOf(['Loci ships these plugins:', '', ...items, ''].join('\n')).map((f) => f.text);
    expect(texts.every((t) => t.length <= 320)).toBe(true);
    expect(texts.some((t) => t.includes('Plugin number 40'))).toBe(false);
  });
});

describe('the extractive answer shows a list the notes state', () => {
  let notes: IndexedNotes;
  beforeAll(async () => {
    notes = await indexNotes('loci-x3-lists-', {
      'Install.md': INSTALL,
      ...NEIGHBOUR_NOTES,
    });
  });
  afterAll(() => notes.close());

  it('answers "which platforms" with the whole list, cited to its lines', async () => {
    const question = 'Which platforms does Loci run on?';
    const { cited, texts } = await citationHolding(notes.ctx, question, 'Windows');
    expect(cited, JSON.stringify(texts)).toBeDefined();
    expect(cited!.text).toMatch(/Linux.*macOS.*Windows/);
    expect([cited!.docPath, cited!.lineFrom, cited!.lineTo]).toEqual(['Install.md', 5, 9]);
  });
});
