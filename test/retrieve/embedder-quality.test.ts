import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Embedder } from '../../main/engine/embed/embedder.js';
import { createEmbedder } from '../../main/engine/embed/registry.js';
import { indexFolder } from '../../main/engine/index/run.js';
import { BAG_OF_WORDS, embedderQuality, estimateEmbedderQuality, reversedWords } from '../../main/engine/retrieve/embedder-quality.js';
import { createLociRetriever, lociRetriever, type LociExplanation } from '../../main/engine/retrieve/loci/retriever.js';
import { findBenchModel } from '../support/bench-models.js';
import { indexNotes, type IndexedNotes } from '../support/indexed-notes.js';
import { graphAgreementWeight, graphSeededDocuments, SEED_DEPTH } from '../../main/engine/retrieve/graph-seeds.js';
import { firstStageNotes, fusedDocuments } from '../../main/engine/retrieve/rank-fusion.js';
import { RRF_K } from '../../main/engine/retrieve/hybrid.js';
import { analyseQuery } from '../../main/engine/retrieve/query.js';

// Notes on unrelated topics, each a few plain sentences, so every note has probe sentences of its own.
const ENGLISH: Record<string, string> = {
  'bread.md': '# Baking bread\n\nKnead the dough for ten minutes until it feels smooth and springs back when pressed.\n\nLet the loaf rise in a warm corner of the kitchen for about an hour before it goes into the oven.\n',
  'bikes.md': '# Bicycle care\n\nPump the tyres to the pressure printed on their side wall before every long ride.\n\nA chain that squeaks needs a few drops of oil, wiped off again so it does not collect grit.\n',
  'garden.md': '# Tomatoes\n\nTomato seedlings go outside only after the last frost, in a sunny bed sheltered from the wind.\n\nWater them at the roots in the morning so the leaves dry before evening and stay free of blight.\n',
  'taxes.md': '# Tax return\n\nThe yearly return is filed before the end of April together with the statements from the bank.\n\nReceipts for work equipment are kept for six years in the grey folder on the office shelf.\n',
  'sleep.md': '# Insomnia\n\nWhen I cannot fall asleep I get up, read a paper book in dim light and go back once I feel drowsy.\n\nCoffee after two in the afternoon keeps me awake until well past midnight.\n',
  'moving.md': '# Moving house\n\nThe removal van is booked for the first Saturday of June, and the keys go back to the landlord on Monday.\n\nBoxes with fragile glasses are marked with red tape and travel in our own car.\n',
  'python.md': '# Python tips\n\nA virtual environment keeps the packages of one project apart from those of every other project.\n\nThe formatter rewrites the whole file on save, so style discussions in code review are rare.\n',
  'birds.md': '# Birdwatching\n\nThe heron stands motionless in the shallow water of the pond for many minutes before it strikes.\n\nBinoculars with eight times magnification are light enough to carry on a full day of walking.\n',
};

// The question shares no word with the insomnia note, and "hour" with the bread note: BM25 finds the
// word, a model that reads meaning finds the note.
const PARAPHRASE_QUESTION = 'What helps when I toss and turn in bed, wide-eyed for hours?';

const CHINESE: Record<string, string> = {
  'a.md': '# 记录一\n\n今天上午市图书馆举办了儿童绘本阅读活动，吸引了许多家长带着孩子前来参加。\n',
  'b.md': '# 记录二\n\n新开通的地铁线路连接了城东的工业园区和城西的大学城，早高峰的乘客明显增多。\n',
  'c.md': '# 记录三\n\n连续几天的降雨使河水上涨，防汛部门提醒沿岸居民注意安全并及时转移贵重物品。\n',
  'd.md': '# 记录四\n\n本地一家茶厂引进了新的烘焙设备，今年春茶的产量比去年提高了将近两成。\n',
  'e.md': '# 记录五\n\n社区医院下周起延长门诊时间，晚上也可以预约全科医生进行常规检查。\n',
  'f.md': '# 记录六\n\n老城区的几条小巷完成了路面翻修，沿街的店铺重新开门迎接游客。\n',
};

type Indexed = IndexedNotes;
const indexWith = (embedder: Embedder, notes: Record<string, string>) => indexNotes('loci-quality-', notes, embedder);

const rankOf = (titles: (string | undefined)[], title: string) => {
  const i = titles.indexOf(title);
  return i < 0 ? Infinity : i + 1;
};

describe('reversedWords', () => {
  it('reverses the words as the index segments them, spaced', () => {
    expect(reversedWords('The heron stands still.')).toBe(['still', 'stands', 'heron', 'the'].join(' '));
    expect(reversedWords('河水上涨').split(' ').length).toBeGreaterThan(1);
  });
});

describe('the embedder-quality estimate over real indexes', () => {
  const built: Indexed[] = [];
  afterAll(() => built.forEach((b) => b.close()));

  describe('the built-in GloVe (a bag of words)', () => {
    for (const [language, notes] of [
      ['English', ENGLISH],
      ['Chinese', CHINESE],
    ] as const) {
      it(`gives dense no weight of its own in loci (${language})`, async () => {
        const idx = await indexWith(await createEmbedder('glove'), notes);
        built.push(idx);
        const q = await estimateEmbedderQuality(idx.ctx);
        expect(q.probes).toBeGreaterThan(5);
        expect(q.orderSensitivity).toBeLessThan(BAG_OF_WORDS);
        expect(q.weight).toBe(0);
        const r = await lociRetriever(idx.ctx, language === 'English' ? PARAPHRASE_QUESTION : '哪里举办了儿童阅读活动？', 5);
        expect((r.explanation as LociExplanation).weights.dense).toBe(0);
        expect((r.explanation as LociExplanation).documents.every((d) => d.ranks.dense === undefined)).toBe(true);
      }, 60_000);
    }
  });

  it('is estimated once per corpus, and again once the number of chunks has moved by a quarter', async () => {
    const idx = await indexWith(await createEmbedder('glove'), { 'bread.md': ENGLISH['bread.md']!, 'bikes.md': ENGLISH['bikes.md']! });
    built.push(idx);
    const first = embedderQuality(idx.ctx);
    expect(embedderQuality(idx.ctx)).toBe(first);
    expect((await first).probes).toBeGreaterThan(0);
    for (const [name, text] of Object.entries(ENGLISH)) writeFileSync(join(idx.dir, name), text);
    await indexFolder(idx.db, idx.ctx.embedder, idx.dir);
    const after = embedderQuality(idx.ctx);
    expect(after).not.toBe(first);
    expect((await after).probes).toBeGreaterThan((await first).probes);
  }, 60_000);

  const minilm = findBenchModel('minilm');
  describe.skipIf(!minilm)('MiniLM (staged bench model; reads words in context, English only)', () => {
    let embedder: Embedder | undefined;
    beforeAll(async () => {
      embedder = await createEmbedder(`transformers:${minilm!}`);
    }, 60_000);
    afterAll(async () => embedder?.dispose?.());

    it('is trusted on English notes, and ranks a paraphrased question’s note higher than loci without dense', async () => {
      const idx = await indexWith(embedder!, ENGLISH);
      built.push(idx);
      const q = await embedderQuality(idx.ctx);
      expect(q.orderSensitivity).toBeGreaterThan(BAG_OF_WORDS);
      expect(q.coverage).not.toBeNull();
      expect(q.weight).toBeGreaterThan(0.5);

      const adaptive = await lociRetriever(idx.ctx, PARAPHRASE_QUESTION, 5);
      const x = adaptive.explanation as LociExplanation;
      expect(x.weights.dense).toBeGreaterThan(0);
      idx.ctx.cache.forgetQuestions();
      const fixed = await createLociRetriever({ wDense: 0 })(idx.ctx, PARAPHRASE_QUESTION, 5);
      const withDense = rankOf(adaptive.contexts.map((c) => c.docTitle), 'Insomnia');
      const without = rankOf(fixed.contexts.map((c) => c.docTitle), 'Insomnia');
      expect(withDense).toBe(1);
      expect(withDense).toBeLessThan(without);
    }, 120_000);

    it('makes hig and pgr count dense in their seeds at least as far as it is trusted', async () => {
      const idx = await indexWith(embedder!, ENGLISH);
      built.push(idx);
      const trust = (await embedderQuality(idx.ctx)).weight;
      expect(trust).toBeGreaterThan(0.5);
      // A question one note matches by its words: dense's top 10 is the whole folder, no more inside
      // that note's neighbourhood than chance, so the graph agreement alone gives dense its minimum and
      // the trust has to lift it.
      const qa = await analyseQuery(idx.ctx, 'Where does the heron wait?');
      const { lexical, dense } = firstStageNotes(idx.ctx, qa, SEED_DEPTH);
      const agreement = graphAgreementWeight(idx.ctx, lexical.map((x) => x.docId), dense.map((x) => x.docId));
      const { documents, denseWeight } = await graphSeededDocuments(idx.ctx, qa);
      expect(agreement).toBeLessThan(trust);
      expect(denseWeight).toBe(trust);
      expect(documents).toEqual(fusedDocuments(idx.ctx, qa, SEED_DEPTH, RRF_K, denseWeight));
    }, 120_000);
  });
});
