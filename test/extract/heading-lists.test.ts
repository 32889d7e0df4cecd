import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractFast } from '../../main/engine/extract/fast/index.js';
import { parseNote } from '../../main/engine/ingest/parse.js';
import type { ExtractedFci } from '../../main/engine/types.js';
import { indexNotes, type IndexedNotes } from '../support/indexed-notes.js';
import { citationHolding, NEIGHBOUR_NOTES } from '../support/list-answers.js';

// A list of short items right under a heading, with no sentence to lead it in, reaches the facts led by
// its heading, citing the heading's line through the last item's, so the cited lines show every word.

const SETUP = [
  '# Setup', //                                                          1
  '', //                                                                 2
  'Loci indexes a folder of plain Markdown notes on your own machine.', // 3
  '', //                                                                 4
  '## Requirements', //                                                  5
  '', //                                                                 6
  '- Node 20', //                                                        7
  '- 4 GB of memory', //                                                 8
  '- A modern browser', //                                               9
  '', //                                                                10
  '## Related', //                                                      11
  '', //                                                                12
  '- [[Sync]]', //                                                      13
  '- [[Backups]]', //                                                   14
  '', //                                                                15
  '## Agenda', //                                                       16
  '', //                                                                17
  '- Intro', //                                                         18
  '  - Why plain files', //                                             19
  '- Demo', //                                                          20
  '', //                                                                21
  '## Steps', //                                                        22
  '', //                                                                23
  '- Download the installer from the releases page of the project.', // 24
  '- Run the installer and pick the folder that holds your notes.', // 25
  '', //                                                                26
  '## Ports', //                                                        27
  '', //                                                                28
  '```', //                                                             29
  'listen 8080', //                                                     30
  '```', //                                                             31
  '', //                                                                32
  '- HTTP on 8080', //                                                  33
  '- HTTPS on 8443', //                                                 34
  '',
].join('\n');

function factsOf(content: string): ExtractedFci[] {
  return extractFast(parseNote('Setup.md', content)).fcis;
}

describe('short list items right under a heading in fast mode', () => {
  it('makes the heading and its short items one fact, citing the heading to the last item', () => {
    const fcis = factsOf(SETUP);
    const list = fcis.find((f) => f.text.startsWith('Requirements:'));
    expect(list, JSON.stringify(fcis.map((f) => f.text))).toBeDefined();
    expect(list!.text).toBe('Requirements: Node 20; 4 GB of memory; A modern browser');
    expect([list!.lineFrom, list!.lineTo]).toEqual([5, 9]);
    // The cited lines hold the fact's words, heading included; the items are not also facts on their own.
    const lines = SETUP.split('\n');
    expect(lines[list!.lineFrom - 1]).toBe('## Requirements');
    expect(lines[list!.lineTo - 1]).toContain('A modern browser');
    expect(fcis.filter((f) => f.text.includes('4 GB'))).toHaveLength(1);
  });

  it('leaves link lists, nested outlines, full-sentence items and lists not directly under the heading as they were', () => {
    const texts = factsOf(SETUP).map((f) => f.text);
    expect(texts.some((t) => t.includes('Sync') || t.includes('Backups'))).toBe(false);
    expect(texts.some((t) => t.includes('Intro') || t.includes('Demo'))).toBe(false);
    expect(texts).toContain('Download the installer from the releases page of the project.');
    expect(texts).toContain('Run the installer and pick the folder that holds your notes.');
    expect(texts.some((t) => t.startsWith('Steps'))).toBe(false);
    // After a code block the list is no longer what the heading introduces.
    expect(texts.some((t) => t.includes('8443'))).toBe(false);
  });

  it('keeps a list too long for one fact out', () => {
    const items = Array.from({ length: 40 }, (_, i) => `- Plugin number ${i + 1}`);
    const texts = factsOf(['# Plugins', '', 'Loci ships many plugins.', '', '## Bundled', '', ...items, ''].join('\n')).map((f) => f.text);
    expect(texts.every((t) => t.length <= 320)).toBe(true);
    expect(texts.some((t) => t.includes('Plugin number 40'))).toBe(false);
  });
});

describe('the extractive answer shows a list a heading names', () => {
  let notes: IndexedNotes;
  beforeAll(async () => {
    notes = await indexNotes('loci-x4-heading-lists-', {
      'Setup.md': SETUP,
      ...NEIGHBOUR_NOTES,
    });
  });
  afterAll(() => notes.close());

  it('answers "what are the requirements" with the whole list, cited to its lines', async () => {
    const question = 'What are the requirements?';
    const { cited, texts } = await citationHolding(notes.ctx, question, '4 GB');
    expect(cited, JSON.stringify(texts)).toBeDefined();
    expect(cited!.text).toMatch(/Node 20.*4 GB of memory.*A modern browser/);
    expect([cited!.docPath, cited!.lineFrom, cited!.lineTo]).toEqual(['Setup.md', 5, 9]);
  });
});
