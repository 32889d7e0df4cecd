// Retrieval builds its index-wide structures on the first question after the index changes: the
// vectors in memory, the entity–chunk–note graph with its synonym pairs and title mentions, term
// statistics. What is kept per note (title hits, bigram counts) outlasts an edit of another note, yet on
// the 10k news pool the rest still takes 0.6 s after an edit, 1.0 s when the edit adds an entity and
// 2.5 s for the first question of a process (a warm question takes under 10 ms). The engine asks one
// question of its own in idle time after the index changes, so a person's question finds them built.
// Nobody sees its answer.
import type { RetrievalContext } from './retriever.js';
import type { RetrievalMethod } from '../types.js';
import { retrieve } from './index.js';
import { extractiveAnswer } from '../answer/extractive.js';
import { latestPassageText } from '../store/retrieval.js';

/** Words of the sample passage asked: enough to take every step a real question takes. */
const MAX_QUESTION_CHARS = 80;

/**
 * Asks, with `method`, the opening words of the note indexed last (in the library's own language, so a
 * Chinese library builds its character statistics too), and makes the extractive answer. Returns false
 * when the index has nothing to ask about.
 */
export async function warmRetrieval(ctx: RetrievalContext, method: RetrievalMethod): Promise<boolean> {
  const text = latestPassageText(ctx.db);
  const question = text?.replace(/\s+/g, ' ').trim().slice(0, MAX_QUESTION_CHARS);
  if (!question) return false;
  const r = await retrieve(ctx, question, method, 8);
  await extractiveAnswer(ctx, question, r.contexts, 5, r.query);
  return true;
}
