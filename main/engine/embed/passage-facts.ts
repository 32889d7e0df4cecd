import { normalize, type SpanEmbedder, type SpanRequest } from './embedder.js';
import { locateFact } from './fact-spans.js';
import type { CharSpan } from './token-spans.js';
import { estimatedTokens } from './estimated-tokens.js';

/** A fact to be given a vector from its passage's pass: its id and text. */
export interface PassageFact {
  id: number;
  text: string;
}

/**
 * How much of its passage's vector is taken out of a fact's pooled one. Pooled in context, the facts of
 * one passage all lean to its topic: with MiniLM their mean cosine to each other was 0.70 on SilverBullet
 * (0.29 embedded alone), 0.76 on HotpotQA (0.41), 0.87 on CRUD news (0.65), so among a note's facts the
 * question's similarity told them apart less. Half the passage's vector out gives 0.29, 0.36 and 0.60, as
 * alike as facts embedded alone, and keeps their cosine to the embedded vectors (0.75, 0.76, 0.62).
 * Chosen by that likeness alone, not by an answer score (scripts/bench/pooled-facts.ts).
 */
export const PASSAGE_SHARE_REMOVED = 0.5;

/** Passes over a passage's rest past the model's cut, at most: a 700-token news article takes three. */
const MAX_REST_PASSES = 8;

/**
 * Embeds each passage text once and gives each of its facts the mean of its tokens' states in that same
 * pass (late chunking), less a share of the passage's own vector: fast-mode facts are the passage's own
 * sentences, which embedded alone cost a model 0.6× the passages' tokens again (SilverBullet).
 *
 * Facts past where the model cuts the passage are pooled the same way from a pass over the passage's
 * rest, from the first of them on (less a share of that pass's vector), where that rest costs the model
 * fewer tokens than all the passage's facts alone would.
 *
 * A passage's facts are pooled all or none: when one cannot be placed in it (or in its rest), all of them
 * are left out of `facts` and the caller embeds them alone. The extractive answer ranks a note's facts
 * by their similarity to the question, and pooled and lone vectors side by side skewed it: on CRUD news,
 * where 70% of the facts lie past MiniLM's 256-token cut, pooling only those before it lost 2.6 points
 * [−5.3, −0.5] of answers on crud-1doc.
 *
 * Returns each passage text's vector, the pooled facts' vectors, and the rests the model ran over.
 */
export async function embedPassagesWithFacts(
  embedder: SpanEmbedder,
  texts: string[],
  factsOf: (text: string) => readonly PassageFact[],
): Promise<{ vectors: Map<string, Float32Array>; facts: Map<number, Float32Array>; restsRun: string[] }> {
  // A passage with a fact it cannot place asks for no spans at all: none of its facts would be kept.
  const items = texts.map((text) => {
    const own = factsOf(text);
    const placed = own.flatMap((f) => {
      const span = locateFact(text, f.text);
      return span ? [{ id: f.id, span }] : [];
    });
    return { text, placed: placed.length === own.length ? placed : [] };
  });
  const results = await embedder.embedWithSpans(items.map(({ text, placed }) => ({ text, spans: placed.map((p) => p.span) })));
  if (results.length !== items.length) throw new Error(`embedder ${embedder.id} returned ${results.length} vectors for ${items.length} texts`);
  const vectors = new Map<string, Float32Array>();
  const pooled = items.map(({ text, placed }, i) => {
    const { vector, spans } = results[i]!;
    vectors.set(text, vector);
    return placed.map((_, j) => (spans[j] ? withoutContext(spans[j]!, vector) : null));
  });

  // The rest of each passage with facts still unpooled, from the first of them, until all are pooled or
  // a pass places none (a span that cuts a token stays unpooled however the text is cut). Each passage's
  // passes are planned by tokenizing alone and run only where they would pool every fact left: all or
  // none would throw the others' away (on news, where a rest that starts with a character MiniLM lacks
  // places nothing, passes run blind added 140 s to 2,000 articles for 2,252 of 24,131 facts pooled).
  const restsRun: string[] = [];
  let rests = items.flatMap((item, i) => restOf(item.text, 0, item.placed, whichPooled(pooled[i]!), i)).filter((r) => restIsCheaper(items[r.item]!, r) && poolsAll(embedder, items[r.item]!, pooled[r.item]!, r));
  for (let pass = 0; rests.length > 0 && pass < MAX_REST_PASSES; pass++) {
    const out = await embedder.embedWithSpans(rests.map((r) => restRequest(items[r.item]!, r)));
    restsRun.push(...rests.map((r) => r.text));
    rests = rests.flatMap((r, k) => {
      const { vector, spans } = out[k]!;
      const left = pooled[r.item]!;
      r.facts.forEach((j, n) => {
        if (spans[n]) left[j] = withoutContext(spans[n]!, vector);
      });
      return restOf(items[r.item]!.text, r.from, items[r.item]!.placed, whichPooled(left), r.item);
    });
  }

  const facts = new Map<number, Float32Array>();
  items.forEach(({ placed }, i) => {
    const made = pooled[i]!;
    if (made.every((v) => v !== null)) placed.forEach((p, j) => facts.set(p.id, made[j]!));
  });
  return { vectors, facts, restsRun };
}

interface Rest {
  item: number;
  /** Where in the passage the rest begins. */
  from: number;
  text: string;
  /** Indexes of the passage's placed facts it pools. */
  facts: number[];
}

/** The passage's rest from its first fact not yet pooled, when that starts after `from` (else no progress). */
function restOf(text: string, from: number, placed: readonly { span: CharSpan }[], pooled: readonly boolean[], item: number): Rest[] {
  const facts = placed.flatMap((_, j) => (pooled[j] ? [] : [j]));
  if (facts.length === 0) return [];
  const start = Math.min(...facts.map((j) => placed[j]!.span[0]));
  return start > from ? [{ item, from: start, text: text.slice(start), facts }] : [];
}

/** For each of a passage's facts, whether it has a pooled vector yet. */
function whichPooled(pooled: readonly (Float32Array | null)[]): boolean[] {
  return pooled.map((v) => v !== null);
}

function restRequest(item: { placed: readonly { span: CharSpan }[] }, rest: Rest): SpanRequest {
  return { text: rest.text, spans: rest.facts.map((j) => shifted(item.placed[j]!.span, rest.from)) };
}

/**
 * Whether the passes over the passage's rests, from `first` on, would pool every fact the passage's own
 * pass left, by the embedder's tokenizing alone (an embedder that cannot tell is taken at its word).
 */
function poolsAll(embedder: SpanEmbedder, item: { text: string; placed: readonly { span: CharSpan }[] }, pooled: readonly (Float32Array | null)[], first: Rest): boolean {
  if (!embedder.poolableSpans) return true;
  const made = whichPooled(pooled);
  let rest: Rest | undefined = first;
  for (let pass = 0; rest && pass < MAX_REST_PASSES; pass++) {
    const [poolable] = embedder.poolableSpans([restRequest(item, rest)]);
    rest.facts.forEach((j, n) => {
      if (poolable![n]) made[j] = true;
    });
    [rest] = restOf(item.text, rest.from, item.placed, made, rest.item);
  }
  return made.every(Boolean);
}

/**
 * Whether running the passage's rest costs the model less than embedding all its facts alone (what all
 * or none leaves otherwise): on Foam the rests past the cut are mostly tables and code, 14,771 tokens
 * where its facts alone were 7,384; on SilverBullet 8,746 where they were 20,584.
 */
function restIsCheaper(item: { text: string; placed: readonly { span: CharSpan }[] }, rest: Rest): boolean {
  const alone = item.placed.reduce((n, p) => n + 1 + estimatedTokens(item.text.slice(...p.span), Infinity), 0);
  return estimatedTokens(rest.text, Infinity) < alone;
}

function shifted([a, b]: CharSpan, by: number): CharSpan {
  return [a - by, b - by];
}

function withoutContext(pooled: Float32Array, passage: Float32Array): Float32Array {
  const v = new Float32Array(pooled.length);
  for (let k = 0; k < v.length; k++) v[k] = pooled[k]! - PASSAGE_SHARE_REMOVED * passage[k]!;
  return normalize(v);
}
