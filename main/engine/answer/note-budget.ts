import type { RetrievedContext } from '../types.js';

/** Facts a note may give the answer whatever the retriever returned of it: a multi-hop answer reaches the second note. */
export const MIN_PER_NOTE = 2;

/**
 * How far a note's best score must stand above another note's for the ranking to be sure of their order.
 * Notes within a tenth of each other are a near tie (a recipe page at 0.261 over the guide at 0.255), and
 * a near tie moves no facts.
 */
export const CLEAR_LEAD = 1.1;

/**
 * How many facts each retrieved note may give the answer (by document id).
 *
 * A note gives as many facts as the passages the retriever returned of it (at least MIN_PER_NOTE): a guide
 * whose page it returns three times answers from that page. But the passage count alone follows how the
 * retriever spreads passages, not how sure it is of the note: loci may return the page it ranks far first
 * twice and a neighbour it ranks well below three times, and the answer then took more facts from the
 * neighbour. So the ranking's confidence moves the budget:
 * - a note whose best score clearly leads another's (by CLEAR_LEAD) may give as many facts as that note;
 * - no note gives more facts than the first-ranked note may.
 * The total stays the caller's (five facts); this only decides which notes may fill it.
 */
export function factBudgets(contexts: RetrievedContext[]): Map<number, number> {
  const passages = new Map<number, number>();
  const best = new Map<number, number>();
  for (const c of contexts) {
    passages.set(c.docId, (passages.get(c.docId) ?? 0) + 1);
    best.set(c.docId, Math.max(best.get(c.docId) ?? -Infinity, c.score));
  }
  const led = new Map<number, number>();
  for (const [d, sd] of best) {
    let budget = Math.max(MIN_PER_NOTE, passages.get(d) ?? 0);
    if (sd > 0) for (const [e, se] of best) if (e !== d && se * CLEAR_LEAD <= sd) budget = Math.max(budget, passages.get(e) ?? 0);
    led.set(d, budget);
  }
  const first = contexts[0]?.docId;
  const ceiling = first === undefined ? Infinity : (led.get(first) ?? Infinity);
  return new Map([...led].map(([d, b]) => [d, Math.max(MIN_PER_NOTE, Math.min(b, ceiling))]));
}
