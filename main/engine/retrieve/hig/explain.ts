import type { HigExplanation } from './retriever.js';
import { LEXICAL_FIRST } from '../graph-seeds.js';
import { SECTION_SPANS } from '../passage-spans.js';

const f3 = (x: number) => x.toFixed(3);

/** `--explain` for hig: the documents (top-N and neighbours with their weights), the entities kept, the triples. */
export function formatHigExplanation(x: HigExplanation): string {
  const title = new Map(x.documents.map((d) => [d.docId, d.title]));
  const out = [
    `hig (${x.params.strategy}; N=${x.params.topN}, K=${x.params.neighbours}, λ=${x.params.lambda}, T=${x.params.maxTriples})`,
    `Seeds: BM25+dense fusion, dense weight ${f3(x.denseWeight)} (its agreement with BM25 on the document graph)${x.lexicalFirst ? LEXICAL_FIRST : ''}`,
    ...(x.sectionSpans ? [SECTION_SPANS] : []),
    'Documents:',
  ];
  for (const d of x.documents) {
    const how = d.hops === 0 ? 'top-N by BM25+dense fusion' : `${d.hops}-hop neighbour of “${title.get(d.via!) ?? d.via}”`;
    out.push(`  ${d.title}  sim ${f3(d.similarity)} · w ${f3(d.weight)} = ${f3(d.score)}  (${how})`);
  }
  out.push(`Entities kept (w·cos > ${x.params.lambda}):`);
  for (const e of x.entities) out.push(`  ${e.name}  w ${f3(e.weight)} · cos ${f3(e.similarity)} = ${f3(e.score)}  in “${title.get(e.docId) ?? e.docId}”`);
  if (x.triples.length) {
    out.push('Triples:');
    for (const t of x.triples) out.push(`  (${t.text})  ${f3(t.score)}  from “${title.get(t.docId) ?? t.docId}”`);
  }
  return out.join('\n');
}
