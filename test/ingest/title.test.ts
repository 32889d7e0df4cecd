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

  it('prefers a front-matter title', () => {
    expect(parseNote('a.md', '---\ntitle: Real Title\n---\n# Other\n\nText.\n').title).toBe('Real Title');
  });
});
