// What the list-fact tests share: notes beside the one under test, so retrieval has a choice, and the
// citation of `loci ask`'s extractive answer (no model) whose text holds a given phrase.
import { extractiveAnswer } from '../../main/engine/answer/extractive.js';
import { retrieve } from '../../main/engine/retrieve/index.js';
import type { RetrievalContext } from '../../main/engine/retrieve/retriever.js';

export const NEIGHBOUR_NOTES: Record<string, string> = {
  'Sync.md': '# Sync\n\nLoci keeps one index per notes folder and updates it when a file changes on disk.\n\nA folder on a network drive is watched by polling every few seconds.\n',
  'Backups.md': '# Backups\n\nThe index can always be rebuilt from the notes, so a backup needs only the notes folder.\n',
};

/** The answer's citation whose text holds `phrase` (undefined when none does), and every citation's text. */
export async function citationHolding(ctx: RetrievalContext, question: string, phrase: string) {
  const { contexts } = await retrieve(ctx, question, 'loci', 8);
  const answer = await extractiveAnswer(ctx, question, contexts);
  return { cited: answer.citations.find((c) => c.text.includes(phrase)), texts: answer.citations.map((c) => c.text) };
}
