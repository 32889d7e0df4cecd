import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FEEDBACK_PARAMS, expandedRanking, expansionOf } from '../../main/engine/retrieve/feedback.js';
import { analyseQuery, bm25Ranking } from '../../main/engine/retrieve/query.js';
import { createLociRetriever, lociRetriever } from '../../main/engine/retrieve/loci.js';
import { indexNotes, type IndexedNotes } from '../support/indexed-notes.js';

describe('pseudo-relevance feedback (RM3) in loci, over a real index', () => {
  let notes: IndexedNotes | undefined;
  beforeAll(async () => {
    notes = await indexNotes('loci-feedback-', {
      // The note the question is asked of, and a second account of the same event that shares its
      // words (Varnis, moraine, surveyors…) but none of the question's.
      'a.md': '# Expedition log\n\nThe Kestrel expedition camped at Lake Varnis beside the glacier moraine; the surveyors mapped the meltwater channels.\n',
      'b.md': '# Field report\n\nAt Lake Varnis the surveyors measured the moraine and traced every meltwater channel to the glacier snout.\n',
      'c.md': '# Coffee\n\nThe roastery sells light roasts from Ethiopia and Kenya.\n',
      'd.md': '# Football\n\nThe home side won two goals to nil on Saturday evening.\n',
      // 报道二 shares the first report's wording, not the question's.
      'e.md': '# 报道一\n\n台风杜苏芮于周五上午在福建晋江沿海登陆，沿海渔船全部回港避风，多地学校停课。\n',
      'f.md': '# 报道二\n\n晋江沿海渔船全部回港避风，多地学校停课，铁路部门停运部分列车。\n',
    });
  }, 60_000);
  afterAll(() => notes?.close());

  const titles = async (r: ReturnType<typeof createLociRetriever>, q: string) => {
    const ctx = notes!.ctx;
    ctx.cache.forgetQuestions();
    return (await r(ctx, q, 6)).contexts.map((c) => c.docTitle);
  };

  it('expands the question by the top passages\' words it lacks, never by its own', async () => {
    const ctx = notes!.ctx;
    const qa = await analyseQuery(ctx, 'Where did the Kestrel expedition camp?');
    const terms = expansionOf(ctx, qa, bm25Ranking(ctx, qa, 10), DEFAULT_FEEDBACK_PARAMS).map((t) => t.term);
    expect(terms.length).toBeGreaterThan(0);
    expect(terms).toContain('varnis');
    for (const t of qa.terms) expect(terms).not.toContain(t);
  });

  it('finds a note that shares none of the question\'s words but the first passage\'s (English and Chinese)', async () => {
    for (const [q, first, second] of [
      ['Where did the Kestrel expedition camp?', 'Expedition log', 'Field report'],
      ['台风杜苏芮在哪里登陆？', '报道一', '报道二'],
    ] as const) {
      const without = await titles(createLociRetriever({ feedback: { ...DEFAULT_FEEDBACK_PARAMS, weight: 0 } }), q);
      expect(without[0]).toBe(first);
      expect(without).not.toContain(second);
      const withFeedback = await titles(lociRetriever, q);
      expect(withFeedback[0]).toBe(first);
      expect(withFeedback[1]).toBe(second);
    }
  });

  it('returns the question\'s ranking unchanged when there is nothing to feed back', async () => {
    const ctx = notes!.ctx;
    const qa = await analyseQuery(ctx, 'Where did the Kestrel expedition camp?');
    const words = bm25Ranking(ctx, qa, 10);
    expect(expandedRanking(ctx, qa, words, [], 10, DEFAULT_FEEDBACK_PARAMS)).toBe(words);
    expect(expandedRanking(ctx, qa, words, words, 10, { ...DEFAULT_FEEDBACK_PARAMS, weight: 0 })).toBe(words);
  });
});
