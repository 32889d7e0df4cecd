import { describe, expect, it } from 'vitest';
import { parseNote } from '../../main/engine/ingest/parse.js';

describe('note titles', () => {
  it('takes an opening H1 as the title and keeps it out of the heading paths', () => {
    const note = parseNote('notes/brew.md', '# Pour-over\n\nBloom for 30 seconds.\n\n## Ratio\n\nUse 1:16.\n');
    expect(note.title).toBe('Pour-over');
    expect(note.chunks.map((c) => c.headingPath)).toEqual([[], ['Ratio']]);
  });

  it('uses the file name when the first H1 comes after body text (it is a section then)', () => {
    const note = parseNote('Space/Integrated Query.md', '---\ntags: glossary\n---\nIntro text first.\n\n# Clauses\n\nA clause.\n');
    expect(note.title).toBe('Integrated Query');
    expect(note.chunks.at(-1)?.headingPath).toEqual(['Clauses']);
  });

  it('uses the file name when the note has several H1s (each is a section then)', () => {
    const adr = '---\ntags: adr\n---\n# Context\nWhy we chose it.\n\n# Decision\nWhat we chose.\n\n# Consequences\nWhat follows.\n';
    const note = parseNote('ADR/001 Offline-First.md', adr);
    expect(note.title).toBe('001 Offline-First');
    expect(note.chunks.map((c) => c.headingPath)).toEqual([['Context'], ['Decision'], ['Consequences']]);
  });

  it('still takes an opening H1 as the title when a later H1 is only inside a code block', () => {
    expect(parseNote('a.md', '# Real\n\n```md\n# Not a heading\n```\n').title).toBe('Real');
  });

  it('prefers a front-matter title', () => {
    expect(parseNote('a.md', '---\ntitle: Real Title\n---\n# Other\n\nText.\n').title).toBe('Real Title');
  });
});
