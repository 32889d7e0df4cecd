import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexNotes, type IndexedNotes } from '../support/indexed-notes.js';
import { entityGraph } from '../../main/engine/retrieve/ppr.js';
import { createLociRetriever, lociParams, lociStages, namedTitles, rankStages, type LociExplanation } from '../../main/engine/retrieve/loci/retriever.js';
import { namesWeightOf, DEFAULT_LOCI_PARAMS } from '../../main/engine/retrieve/loci-params.js';
import { titleNameShare, tokens, writtenAsName } from '../../main/engine/retrieve/title-names.js';

describe('whether a title is written as a name', () => {
  it('reads the case of a mid-sentence occurrence; a sentence or list item start says nothing', () => {
    expect(writtenAsName(tokens('The film was directed by Maxwell Shane in 1953.'), 'maxwell shane')).toBe(true);
    expect(writtenAsName(tokens('Add a widget to the page.'), 'widget')).toBe(false);
    expect(writtenAsName(tokens('Widget. Widgets render live.'), 'widget')).toBeNull();
    expect(writtenAsName(tokens('- Widget settings\n- Tags'), 'widget')).toBeNull();
    // Han script has no case.
    expect(writtenAsName(tokens('他说 北京 很大'), '北京')).toBeNull();
  });

  it('weighs a corpus by its share of names: none below namesFrom, full from namesFull, half where case cannot tell', () => {
    expect(namesWeightOf(0.2, DEFAULT_LOCI_PARAMS)).toBe(0);
    expect(namesWeightOf(0.9, DEFAULT_LOCI_PARAMS)).toBe(1);
    expect(namesWeightOf(null, DEFAULT_LOCI_PARAMS)).toBe(0.5);
  });
});

describe('titles the question names', () => {
  it('keeps the longest title where a shorter one lies inside it', () => {
    const titles = new Set(['king arthur', 'king arthur was a gentleman', 'the happy life', 'happy']);
    const words = 'which film came out first the happy life or king arthur was a gentleman'.split(' ');
    expect(namedTitles(words, 8, (g) => titles.has(g)).sort()).toEqual(['king arthur was a gentleman', 'the happy life']);
  });
});

// Twelve films, each naming its director, and notes whose words look like the question's: the director
// of the film the question names is reached from that film's note, above the look-alikes BM25 prefers.
const FILMS = ['The Glass Wall', 'Quiet Harbour', 'Morning Train', 'Red Lantern', 'Salt Road', 'Winter Orchard', 'Paper Moon River', 'Iron Meadow', 'Blue Lagoon Night', 'Copper Sky', 'Silent Bell', 'Northern Gate'];
const DIRECTORS = ['Maxwell Shane', 'Edna Korvath', 'Piet Lindqvar', 'Oona Brask', 'Tomas Weld', 'Ilse Marrow', 'Rufus Penhale', 'Greta Solano', 'Anders Fjell', 'Lidia Crane', 'Marco Vettel', 'Hugo Stramm'];
const WIKI: Record<string, string> = {};
FILMS.forEach((f, i) => {
  WIKI[`${f}.md`] = `# ${f}\n\n${f} is a 1953 American drama film directed by ${DIRECTORS[i]} and produced by Columbia Pictures. It stars ${DIRECTORS[(i + 1) % 12]} in a small role.\n`;
  WIKI[`${DIRECTORS[i]}.md`] = `# ${DIRECTORS[i]}\n\n${DIRECTORS[i]} was a screenwriter and producer born in Ohio in 190${i % 10}.\n`;
});
Object.assign(WIKI, {
  'The Glass Cage.md': '# The Glass Cage\n\nThe Glass Cage is a film whose director died young; the director of the glass cage died in a wall of glass.\n',
  'Glass Wall Directory.md': '# Glass Wall Directory\n\nA directory of glass wall makers. The director of the directory died in 1990.\n',
  'The Wall (director).md': '# The Wall (director)\n\nA director who died; the wall, the glass and the director are remembered.\n',
});

describe('the second hop from a note the question names (Wikipedia-like titles)', () => {
  let notes: IndexedNotes | undefined;
  beforeAll(async () => {
    notes = await indexNotes('loci-anchor-bridges-', WIKI);
  }, 60_000);
  afterAll(() => notes?.close());

  it('measures the titles as names, and the named film lends enough to put its director in the top 3', async () => {
    const { ctx } = notes!;
    expect(titleNameShare(ctx.db, entityGraph(ctx).titleMentions)).toBeGreaterThan(0.9);
    const q = 'When did the director of The Glass Wall die?';
    const titles = async (overrides: Parameters<typeof createLociRetriever>[0]) => {
      ctx.cache.forgetQuestions();
      const x = (await createLociRetriever(overrides)(ctx, q, 5)).explanation as LociExplanation;
      return x;
    };
    const x = await titles({});
    expect(x.anchorBridge).toBeCloseTo(DEFAULT_LOCI_PARAMS.wAnchorBridge, 5);
    const top3 = x.documents.slice(0, 3).map((d) => d.title);
    expect(top3).toContain('The Glass Wall');
    expect(top3).toContain('Maxwell Shane');
    // At the plain bridge weight the look-alikes keep the director out of the top 3.
    const plain = await titles({ wAnchorBridge: DEFAULT_LOCI_PARAMS.wBridge });
    expect(plain.documents.slice(0, 3).map((d) => d.title)).not.toContain('Maxwell Shane');
  });

  it('ranks, re-weighted from stages gathered once (how the parameter fit scores a grid point), as the retriever with those weights does', async () => {
    const { ctx } = notes!;
    const q = 'When did the director of The Glass Wall die?';
    ctx.cache.forgetQuestions();
    const stages = await lociStages(ctx, q, lociParams({ wTitle: 0.5, wPpr: 2 }));
    for (const point of [{}, { wTitle: 0.5, wTitleExact: 3, wPpr: 0.5, wBridge: 1 }, { wBm25: 1.5, wAnchorBridge: 1 }]) {
      ctx.cache.forgetQuestions();
      const direct = ((await createLociRetriever(point)(ctx, q, 5)).explanation as LociExplanation).documents;
      const reweighted = rankStages(stages, lociParams(point), 5).ranked;
      expect(reweighted.map((d) => [d.title, d.score])).toEqual(direct.map((d) => [d.title, d.score]));
    }
  });
});

describe('titles that are topics (a documentation folder)', () => {
  let notes: IndexedNotes | undefined;
  const topics = ['widget', 'system', 'template', 'query', 'page', 'attachment', 'plugin', 'command', 'shortcut', 'library', 'theme', 'index'];
  const DOCS: Record<string, string> = {};
  topics.forEach((t, i) => {
    DOCS[`${t}.md`] = `# ${t}\n\nEach ${t} can hold a ${topics[(i + 1) % 12]} and a ${topics[(i + 2) % 12]}, and you edit the ${topics[(i + 3) % 12]} from here.\n`;
  });
  beforeAll(async () => {
    notes = await indexNotes('loci-topic-titles-', DOCS);
  }, 60_000);
  afterAll(() => notes?.close());

  it('measures few names, so a note the question names lends only the plain bridge weight', async () => {
    const { ctx } = notes!;
    expect(titleNameShare(ctx.db, entityGraph(ctx).titleMentions)).toBeLessThan(0.1);
    const x = (await createLociRetriever()(ctx, 'How do I add a widget?', 5)).explanation as LociExplanation;
    expect(x.anchorBridge).toBe(DEFAULT_LOCI_PARAMS.wBridge);
  });
});
