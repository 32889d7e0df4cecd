import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinedCandidates, withJoinedHanWords } from '../../main/engine/retrieve/zh/han-recut.js';
import { analyseQuery } from '../../main/engine/retrieve/query.js';
import { createLociRetriever, lociRetriever } from '../../main/engine/retrieve/loci/retriever.js';
import { formatExplanation } from '../../main/engine/retrieve/explain.js';
import { segmentWords } from '../../main/engine/text/segment.js';
import { coldTitles, indexNotes, type IndexedNotes } from '../support/indexed-notes.js';

// The question's cut splits the name (谁 / 将 / 在 / 他 / 信 / 回国 …) where the notes' cut keeps 他信 whole.
const question = '谁将在他信回国后接待他？';

describe('Han words the question cut split and the notes keep whole', () => {
  it('joins a single character with its neighbour, Han words only', () => {
    const words = segmentWords(question);
    expect(words).toContain('信');
    expect(joinedCandidates(words, [])).toContain('他信');
    // Two words of two characters or more are left as they are; Latin words are never joined.
    expect(joinedCandidates(['国企', '改革'], [])).toEqual([]);
    expect(joinedCandidates(['a', 'b', '信'], [])).toEqual([]);
    expect(joinedCandidates(['他', '信'], ['他信'])).toEqual([]);
  });

  describe('in loci, over a real index', () => {
    let notes: IndexedNotes | undefined;
    beforeAll(async () => {
      const files: Record<string, string> = {
        'airport.md': '# 机场\n\n据报道，他信的航班推迟到晚上，支持者一早就在机场等候他信。\n',
        'roads.md': '# Roads\n\nThe motorway was closed after heavy rain on Friday.\n',
      };
      // More reports naming the question's other words than BM25's candidate list holds.
      for (let i = 0; i < 60; i++) files[`visit-${i}.md`] = `# 访问${i}\n\n第${i}批代表团成员回国后，市里安排专人接待，并介绍了第${i}个合作项目。\n`;
      notes = await indexNotes('loci-han-recut-', files);
    }, 60_000);
    afterAll(() => notes?.close());

    it('finds the note that names him, which the split question word never reaches', async () => {
      const ctx = notes!.ctx;
      const qa = await analyseQuery(ctx, question);
      expect(qa.terms).not.toContain('他信');
      expect(withJoinedHanWords(ctx, qa).terms).toContain('他信');
      const titles = await coldTitles(ctx, lociRetriever, question, 5);
      expect(titles[0]).toBe('机场');
      // --explain says which words were searched whole.
      const explained = await lociRetriever(ctx, question, 5);
      expect(formatExplanation(explained.explanation)).toContain('searched whole, though the question\'s cut split them: 他信');
      // The bigram re-reading alone cannot: the note is not among BM25's candidates.
      expect(await coldTitles(ctx, createLociRetriever({ joinHanWords: false }), question, 5)).not.toContain('机场');
    });

    it('changes nothing for a question with no Han text, nor for joined words the index lacks', async () => {
      const ctx = notes!.ctx;
      const english = await analyseQuery(ctx, 'which motorway was closed after heavy rain?');
      expect(withJoinedHanWords(ctx, english)).toBe(english);
      // 在他 and 后接 are no word of these notes.
      const unknown = await analyseQuery(ctx, '谁在他家后接待？');
      expect(withJoinedHanWords(ctx, unknown).terms.some((t) => t === '在他' || t === '后接')).toBe(false);
    });
  });
});
