// Retrieval metrics of the bench: supporting-paragraph recall@k, answer-string recall, latency percentiles.

/** Distinct documents in rank order (a method may return several contexts from one document). */
export function rankedDocuments(docs: number[]): number[] {
  const seen = new Set<number>();
  const out: number[] = [];
  for (const d of docs) {
    if (seen.has(d)) continue;
    seen.add(d);
    out.push(d);
  }
  return out;
}

/** Share of the gold documents among the first k distinct retrieved documents. */
export function recallAtK(rankedDocs: number[], gold: number[], k: number): number {
  if (gold.length === 0) return 0;
  const top = new Set(rankedDocs.slice(0, k));
  return gold.filter((g) => top.has(g)).length / gold.length;
}

/** Lower-cased, accents and punctuation dropped, whitespace collapsed: the SQuAD-style normalisation. */
export function normalizeAnswer(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\p{P}\p{S}]/gu, ' ')
    .replace(/\b(a|an|the)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** 1 when any answer string occurs in the text (both normalised), else 0. Yes/no answers are not text spans: skipped (null). */
export function answerFound(text: string, answers: string[]): number | null {
  const usable = answers.map(normalizeAnswer).filter((a) => a && a !== 'yes' && a !== 'no');
  if (usable.length === 0) return null;
  const hay = ` ${normalizeAnswer(text)} `;
  // Chinese and Japanese write no spaces between words: there an answer is a substring, not a word sequence.
  return usable.some((a) => (UNSPACED.test(a) ? hay.includes(a) : hay.includes(` ${a} `))) ? 1 : 0;
}

const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function mean(values: number[]): number {
  return values.length === 0 ? NaN : values.reduce((a, b) => a + b, 0) / values.length;
}
