// What `--explain` shows for loci: the weights each ranking got on this question and corpus, and each
// ranked note's ranks, title evidence and bridges.
import type { EmbedderQuality } from '../embedder-quality.js';
import type { LociParams } from '../loci-params.js';
import type { LociDocument } from './documents.js';
import type { FusionWeights } from './fusion.js';

export type { LociDocument };

export interface LociExplanation {
  method: 'loci';
  params: LociParams;
  /** The weight each ranking was given for this question (after agreement and, for the walk, the corpus's references). */
  weights: FusionWeights;
  /** Share of the corpus's notes that name or link another note (the walk's weight follows it). */
  referencingShare: number;
  /** Share of title mentions written as names (title-names.ts; null: no case to tell) and the anchor bridge weight it gave. */
  titleNameShare: number | null;
  anchorBridge: number;
  /** How far the embedder is trusted beside BM25 on this corpus (embedder-quality.ts); null when not estimated. */
  embedderTrust: EmbedderQuality | null;
  /** Chinese questions: words the question's cut split that were searched whole (zh/han-recut.ts). */
  joinedWords: string[];
  documents: LociDocument[];
}

/** `--explain` for loci: each document's ranks in the first-stage rankings, title evidence and bridges. */
export function formatLociExplanation(x: LociExplanation): string {
  const w = x.weights;
  const out = [
    `loci (ranks: bm25 / dense / title / ppr, weighted ${w.bm25.toFixed(2)} / ${w.dense.toFixed(2)} / ${w.title.toFixed(2)} / ${w.ppr.toFixed(2)}; ` +
      `BM25 re-read by character bigrams at ${w.bigramShare.toFixed(2)}, by the question words' proximity at ${x.params.proximity.minDistance.toFixed(2)} / ${x.params.proximity.window.toFixed(2)} ` +
      `and lifted by likeness to its first passage at ${x.params.sameStory.toFixed(2)} for Chinese questions; ` +
      `${(100 * x.referencingShare).toFixed(0)}% of notes name or link another; ` +
      `${x.titleNameShare === null ? 'no case to tell whether titles are names' : `${(100 * x.titleNameShare).toFixed(0)}% of title mentions written as names`}, so a note the question names lends ${x.anchorBridge.toFixed(2)} of its score to the notes it names; ` +
      `TQ = title in the question)`,
  ];
  const t = x.embedderTrust;
  if (t) {
    const coverage = t.coverage === null ? 'not measured (a bag of words)' : t.coverage.toFixed(2);
    out.push(`embedder trusted at ${t.weight.toFixed(2)} on this corpus (word-order sensitivity ${t.orderSensitivity.toFixed(2)}, coverage ${coverage}, ${t.probes} probes)`);
  }
  if (x.joinedWords.length) out.push(`searched whole, though the question's cut split them: ${x.joinedWords.join(', ')}`);
  for (const d of x.documents) {
    const r = (n?: number) => (n === undefined ? '–' : String(n));
    const bridges = d.bridgedFrom.map((b) => `“${b.title}” mentions “${b.mention}”`).join('; ');
    out.push(`  ${d.score.toFixed(4)}  ${d.title}  [${r(d.ranks.bm25)} / ${r(d.ranks.dense)} / ${r(d.ranks.title)} / ${r(d.ranks.ppr)}${d.titleInQuestion ? ' / TQ' : ''}]${bridges ? `  bridge: ${bridges}` : ''}`);
  }
  return out.join('\n');
}
