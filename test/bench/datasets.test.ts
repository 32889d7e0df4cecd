import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectFormat, loadDataset, readRecords } from '../../main/bench/datasets.js';

const DATA = join(import.meta.dirname, '../../../shared/data');
const have = existsSync(DATA);
if (!have) console.warn(`skipping dataset tests: ${DATA} not found`);

describe.skipIf(!have)('bench dataset loaders on the real files', () => {
  it('HotpotQA train (JSON array): 100 questions, 2 gold paragraphs each, pooled and deduplicated', () => {
    const file = join(DATA, 'hotpotqa/train_distractor_100.json');
    const ds = loadDataset(file);
    expect(ds.format).toBe('hotpotqa');
    expect(ds.questions).toHaveLength(100);
    const raw = readRecords(file);
    const contexts = raw.reduce((n, r) => n + r.context.length, 0);
    expect(ds.corpus.length).toBeLessThanOrEqual(contexts);
    expect(new Set(ds.corpus.map((p) => `${p.title}\0${p.text}`)).size).toBe(ds.corpus.length);
    for (const [i, q] of ds.questions.entries()) {
      const titles = new Set(raw[i]!.supporting_facts.map((f: [string, number]) => f[0]));
      expect(q.gold.map((g) => ds.corpus[g]!.title).sort()).toEqual([...titles].sort());
      expect(q.answers).toContain(raw[i]!.answer);
    }
    // Sentences are joined into one paragraph text.
    const first = raw[0]!.context[0];
    const p = ds.corpus.find((c) => c.title === first[0])!;
    expect(p.text.startsWith(first[1][0].trim())).toBe(true);
    expect(p.text).toContain(first[1][1].trim());
  });

  it('HotpotQA dev (JSON Lines), MuSiQue and 2Wiki are detected and read', () => {
    const hot = loadDataset(join(DATA, 'hotpotqa/dev_distractor_10.jsonl'));
    expect(hot.format).toBe('hotpotqa');
    expect(hot.questions).toHaveLength(10);

    const mus = loadDataset(join(DATA, 'musique/dev_answerable_10.jsonl'));
    expect(mus.format).toBe('musique');
    const rawMus = readRecords(join(DATA, 'musique/dev_answerable_10.jsonl'));
    mus.questions.forEach((q, i) => {
      const supporting = rawMus[i]!.paragraphs.filter((p: { is_supporting: boolean }) => p.is_supporting);
      expect(q.gold.length).toBe(supporting.length);
      expect(q.gold.map((g) => ds(mus, g))).toEqual(supporting.map((p: { title: string; paragraph_text: string }) => `${p.title}|${p.paragraph_text}`));
      expect(q.answers[0]).toBe(rawMus[i]!.answer);
    });

    const wiki = loadDataset(join(DATA, '2wiki/dev_10.jsonl'));
    expect(wiki.format).toBe('2wiki');
    expect(wiki.questions.every((q) => q.gold.length >= 1)).toBe(true);
    expect(loadDataset(join(DATA, '2wiki/dev_10.jsonl'), { limit: 3 }).questions).toHaveLength(3);
  });
});

function ds(d: { corpus: { title: string; text: string }[] }, i: number): string {
  return `${d.corpus[i]!.title}|${d.corpus[i]!.text}`;
}

describe('HippoRAG format (corpus + questions) and format detection', () => {
  it('reads a corpus file and resolves gold titles to corpus paragraphs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'loci-hippo-'));
    const corpus = join(dir, 'corpus.json');
    const questions = join(dir, 'questions.json');
    writeFileSync(
      corpus,
      JSON.stringify([
        { title: 'Alpha', text: 'Alpha is a lighthouse on the north cape.' },
        { title: 'Beta', text: 'Beta keeps the Alpha lighthouse.' },
        { title: 'Gamma', text: 'Gamma is unrelated.' },
      ]),
    );
    writeFileSync(
      questions,
      JSON.stringify([
        { id: 'q1', question: 'Who keeps the lighthouse on the north cape?', answer: ['Beta'], paragraphs: [{ title: 'Beta', text: 'Beta keeps the Alpha lighthouse.', is_supporting: true }, { title: 'Gamma', text: 'Gamma is unrelated.', is_supporting: false }] },
        { id: 'q2', question: 'What is Alpha?', answer: 'a lighthouse', supporting_facts: [['Alpha', 0]] },
      ]),
    );
    const d = loadDataset(questions, { corpus });
    expect(d.format).toBe('hipporag');
    expect(d.corpus).toHaveLength(3);
    expect(d.questions[0]!.gold.map((g) => d.corpus[g]!.title)).toEqual(['Beta']);
    expect(d.questions[1]!.gold.map((g) => d.corpus[g]!.title)).toEqual(['Alpha']);
    expect(d.questions[1]!.answers).toEqual(['a lighthouse']);
    expect(() => loadDataset(questions, { format: 'hipporag' })).toThrow(/--corpus/);
  });

  it('rejects records it cannot place', () => {
    expect(() => detectFormat({ foo: 1 }, false)).toThrow(/Unknown dataset format/);
    expect(detectFormat({ context: [], supporting_facts: [], evidences: [] }, false)).toBe('2wiki');
    expect(detectFormat({ context: [], supporting_facts: [], level: 'easy' }, false)).toBe('hotpotqa');
  });
});
