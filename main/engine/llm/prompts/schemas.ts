// Every structured model output, declared once in zod. The JSON schema a local model's grammar (or a
// server's response_format) holds it to is derived from the same declaration, and the zod shape validates
// whatever comes back, because a server may ignore the schema. Lengths and counts are bounded so a
// grammar-constrained answer always closes within its token budget.
import { z } from 'zod';

export const LIMITS = {
  fcisPerPiece: 10,
  fciChars: 200,
  routes: 6,
  factsPerRoute: 6,
  nodeChars: 80,
  triplesPerPiece: 12,
  termChars: 80,
  keyPoints: 5,
  keyPointChars: 160,
  // One call per piece writes FCIs grouped under routes: bounded so a reply closes in ~300 tokens.
  pieceRoutes: 3,
  pieceFactsPerRoute: 4,
  pieceFactChars: 160,
  pieceRouteChars: 60,
} as const;

/**
 * The JSON schema for a grammar or response_format. llama.cpp's JSON-schema grammar takes plain
 * draft-style schemas: the meta keys zod adds (`$schema`, `additionalProperties: false`, the safe-integer
 * bounds of `.int()`) are dropped, so the grammar is exactly the shape's types, bounds and required keys.
 */
export function grammarSchema(shape: z.ZodType): Record<string, unknown> {
  return plain(z.toJSONSchema(shape)) as Record<string, unknown>;
}

function plain(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(plain);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema' || key === 'additionalProperties') continue;
    if ((key === 'minimum' || key === 'maximum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER) continue;
    out[key] = plain(value);
  }
  return out;
}

const text = (min: number, max: number) => z.string().min(min).max(max);
const list = <T extends z.ZodType>(item: T, min: number, max: number) => z.array(item).min(min).max(max);

export const fciOutput = z.object({ facts: list(text(3, LIMITS.fciChars), 1, LIMITS.fcisPerPiece) });
export const fciSchema = grammarSchema(fciOutput);

export const mindMapOutput = z.object({
  topic: text(1, LIMITS.nodeChars),
  routes: list(
    z.object({
      route: text(1, LIMITS.nodeChars),
      facts: list(z.object({ n: z.number().int(), fact: text(1, LIMITS.nodeChars) }), 1, LIMITS.factsPerRoute),
    }),
    1,
    LIMITS.routes,
  ),
});
export const mindMapSchema = grammarSchema(mindMapOutput);

export const tripleOutput = z.object({
  triples: list(
    z.object({ subject: text(1, LIMITS.termChars), relation: text(1, LIMITS.termChars), object: text(1, LIMITS.termChars) }),
    1,
    LIMITS.triplesPerPiece,
  ),
});
export const tripleSchema = grammarSchema(tripleOutput);

export const keyPointsOutput = z.object({ keyPoints: list(text(3, LIMITS.keyPointChars), 1, LIMITS.keyPoints) });
export const keyPointsSchema = grammarSchema(keyPointsOutput);

/** One structured call per piece (prompt p2): the FCIs, already grouped under mind-map routes. */
export const pieceOutput = z.object({
  routes: list(
    z.object({ route: text(1, LIMITS.pieceRouteChars), facts: list(text(3, LIMITS.pieceFactChars), 1, LIMITS.pieceFactsPerRoute) }),
    1,
    LIMITS.pieceRoutes,
  ),
});
export const pieceSchema = grammarSchema(pieceOutput);
export type PieceOutput = z.infer<typeof pieceOutput>;
