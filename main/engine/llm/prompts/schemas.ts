// JSON schemas for every structured model output. Local models are held to them by a grammar, servers by
// response_format; the zod twins validate whatever comes back, because a server may ignore the schema.
// Lengths and counts are bounded so a grammar-constrained answer always closes within its token budget.
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

export const fciSchema = {
  type: 'object',
  properties: {
    facts: {
      type: 'array',
      items: { type: 'string', minLength: 3, maxLength: LIMITS.fciChars },
      minItems: 1,
      maxItems: LIMITS.fcisPerPiece,
    },
  },
  required: ['facts'],
} as const;

export const fciOutput = z.object({ facts: z.array(z.string()) });

export const mindMapSchema = {
  type: 'object',
  properties: {
    topic: { type: 'string', minLength: 1, maxLength: LIMITS.nodeChars },
    routes: {
      type: 'array',
      minItems: 1,
      maxItems: LIMITS.routes,
      items: {
        type: 'object',
        properties: {
          route: { type: 'string', minLength: 1, maxLength: LIMITS.nodeChars },
          facts: {
            type: 'array',
            minItems: 1,
            maxItems: LIMITS.factsPerRoute,
            items: {
              type: 'object',
              properties: {
                n: { type: 'integer' },
                fact: { type: 'string', minLength: 1, maxLength: LIMITS.nodeChars },
              },
              required: ['n', 'fact'],
            },
          },
        },
        required: ['route', 'facts'],
      },
    },
  },
  required: ['topic', 'routes'],
} as const;

export const mindMapOutput = z.object({
  topic: z.string(),
  routes: z.array(z.object({ route: z.string(), facts: z.array(z.object({ n: z.number().int(), fact: z.string() })) })),
});

export const tripleSchema = {
  type: 'object',
  properties: {
    triples: {
      type: 'array',
      minItems: 1,
      maxItems: LIMITS.triplesPerPiece,
      items: {
        type: 'object',
        properties: {
          subject: { type: 'string', minLength: 1, maxLength: LIMITS.termChars },
          relation: { type: 'string', minLength: 1, maxLength: LIMITS.termChars },
          object: { type: 'string', minLength: 1, maxLength: LIMITS.termChars },
        },
        required: ['subject', 'relation', 'object'],
      },
    },
  },
  required: ['triples'],
} as const;

export const tripleOutput = z.object({
  triples: z.array(z.object({ subject: z.string(), relation: z.string(), object: z.string() })),
});

export const keyPointsSchema = {
  type: 'object',
  properties: {
    keyPoints: {
      type: 'array',
      minItems: 1,
      maxItems: LIMITS.keyPoints,
      items: { type: 'string', minLength: 3, maxLength: LIMITS.keyPointChars },
    },
  },
  required: ['keyPoints'],
} as const;

export const keyPointsOutput = z.object({ keyPoints: z.array(z.string()) });

/** One structured call per piece (prompt p2): the FCIs, already grouped under mind-map routes. */
export const pieceSchema = {
  type: 'object',
  properties: {
    routes: {
      type: 'array',
      minItems: 1,
      maxItems: LIMITS.pieceRoutes,
      items: {
        type: 'object',
        properties: {
          route: { type: 'string', minLength: 1, maxLength: LIMITS.pieceRouteChars },
          facts: {
            type: 'array',
            minItems: 1,
            maxItems: LIMITS.pieceFactsPerRoute,
            items: { type: 'string', minLength: 3, maxLength: LIMITS.pieceFactChars },
          },
        },
        required: ['route', 'facts'],
      },
    },
  },
  required: ['routes'],
} as const;

export const pieceOutput = z.object({ routes: z.array(z.object({ route: z.string(), facts: z.array(z.string()) })) });
export type PieceOutput = z.infer<typeof pieceOutput>;
