// PG-RAG's consistency check (eq. 3): generated FCIs must stay close to their source, lexically
// (ROUGE-L F) and semantically (embedding cosine). Official thresholds: ROUGE-L ≥ 0.15, similarity ≥ 0.85.
import { l as rougeLScore } from 'js-rouge';
import { dot, type Embedder } from '../../embed/embedder.js';

export interface ConsistencyThresholds {
  rouge: number;
  sim: number;
}

export const DEFAULT_THRESHOLDS: ConsistencyThresholds = { rouge: 0.15, sim: 0.85 };

const wordSegmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

/** Words for any language; CJK runs split per character, as ROUGE on Chinese is usually computed. */
export function rougeTokens(text: string): string[] {
  const out: string[] = [];
  for (const s of wordSegmenter.segment(text.toLowerCase())) {
    if (!s.isWordLike) continue;
    if (/[\u3400-\u9fff]/.test(s.segment)) out.push(...Array.from(s.segment));
    else out.push(s.segment);
  }
  return out;
}

/** ROUGE-L F1 (js-rouge's LCS), one "sentence" per side, tokens from rougeTokens. 0 when either side is empty. */
export function rougeL(candidate: string, reference: string): number {
  if (rougeTokens(candidate).length === 0 || rougeTokens(reference).length === 0) return 0;
  return rougeLScore(candidate, reference, { segmenter: (s: string) => [s], tokenizer: rougeTokens, caseSensitive: true });
}

export interface ConsistencyScore {
  rouge: number;
  sim: number;
  passed: boolean;
}

export async function checkConsistency(
  generated: string,
  source: string,
  embedder: Embedder,
  thresholds: ConsistencyThresholds = DEFAULT_THRESHOLDS,
  sourceVector?: Float32Array,
): Promise<ConsistencyScore> {
  const rouge = rougeL(generated, source);
  const [g, s] = sourceVector ? [(await embedder.embed([generated]))[0], sourceVector] : await embedder.embed([generated, source]);
  if (!g || !s) throw new Error('The embedder returned no vector.');
  const sim = dot(g, s);
  return { rouge, sim, passed: rouge >= thresholds.rouge && sim >= thresholds.sim };
}
