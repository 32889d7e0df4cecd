// One declaration per shape: the engine's types are z.infer of the zod objects the contract validates
// with, so a field the engine sends cannot be dropped on the wire unnoticed.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { calls } from '../../main/contract/contract.js';
import * as s from '../../main/contract/schemas.js';
import * as shapes from '../../main/contract/shapes/domain.js';
import type { Answer, GraphView, MindMapView } from '../../main/engine/api.js';
import type { RetrievedContext } from '../../main/engine/types.js';

describe('one schema per shape', () => {
  it('the contract validates with the engine shapes themselves', () => {
    expect(s.retrievedContext).toBe(shapes.retrievedContext);
    expect(s.answer).toBe(shapes.answer);
    expectTypeOf<z.infer<typeof s.retrievedContext>>().toEqualTypeOf<RetrievedContext>();
    expectTypeOf<z.output<(typeof calls)['ask']['response']>>().toEqualTypeOf<Answer>();
    expectTypeOf<z.output<(typeof calls)['graph.view']['response']>>().toEqualTypeOf<GraphView>();
    expectTypeOf<z.infer<typeof s.mindMapView>>().toEqualTypeOf<MindMapView>();
  });

  it("a context's chunkId survives the answer's trip through the contract (it was stripped before)", () => {
    const context: RetrievedContext = { text: 't', docId: 1, docPath: 'a.md', docTitle: 'A', lineFrom: 1, lineTo: 2, factPath: null, score: 0.5, kind: 'chunk', chunkId: 7 };
    const answer: Answer = { question: 'q', text: 'x', mode: 'extractive', model: null, method: 'loci', contexts: [context], matchKeys: [], citations: [], answerable: true, answerScore: 0.9, droppedCitations: 0, ms: 1 };
    const wire = calls.ask.response.parse(JSON.parse(JSON.stringify(answer)));
    expect(wire.contexts[0]?.chunkId).toBe(7);
  });

  it('a nested mind map validates to any depth', () => {
    const leaf = { id: 3, kind: 'fact' as const, text: 'f', lineFrom: 2, lineTo: 2, extractor: 'fast', related: [], children: [] };
    const map = { id: 1, kind: 'topic' as const, text: 't', lineFrom: null, lineTo: null, extractor: 'fast', related: [], children: [{ ...leaf, id: 2, kind: 'route' as const, children: [leaf] }] };
    expect(s.mindMapView.parse(map)).toEqual(map);
    expect(s.mindMapView.safeParse({ ...map, children: [{ ...leaf, kind: 'nope' }] }).success).toBe(false);
  });
});
