import type { PgrExplanation, PgrMindMapNode } from './retriever.js';
import { LEXICAL_FIRST } from '../graph-seeds.js';
import { SECTION_SPANS } from '../passage-spans.js';

const f3 = (x: number) => x.toFixed(3);

/** `--explain` for pgr: key points, seed and walked topics, seed fact paths, scores, and the mind map of the chosen paths. */
export function formatPgrExplanation(x: PgrExplanation): string {
  const out = ['pgr', 'Key points:', ...x.keyPoints.map((k) => `  - ${k}`), `Seed topics (BM25+dense fusion, dense weight ${f3(x.denseWeight)}${x.lexicalFirst ? LEXICAL_FIRST : ''}):`];
  for (const t of x.seedTopics) out.push(`  ${t.text}  sim ${f3(t.similarity)}`);
  out.push('Walked topics:');
  for (const t of x.walkedTopics) out.push(`  ${t.text}  sim ${f3(t.similarity)}  via ${t.via}${t.superId !== undefined ? ` #${t.superId}` : ''}`);
  out.push('Seed fact paths:');
  for (const s of x.seedFactPaths) out.push(`  [${s.keyPoint}] ${s.pathText}  sim ${f3(s.similarity)}, reaches ${s.rowsReached} path(s)`);
  out.push('Chosen fact paths:');
  for (const p of x.factPaths) out.push(`  ${f3(p.score)}  ${p.pathText}`);
  if (x.sectionSpans) out.push(SECTION_SPANS);
  out.push('Mind map:');
  const walk = (n: PgrMindMapNode, depth: number) => {
    const lines = n.lineFrom !== null ? ` (lines ${n.lineFrom}–${n.lineTo})` : '';
    out.push(`${'  '.repeat(depth + 1)}${n.kind === 'fact' ? '•' : '▸'} ${n.text}  [${f3(n.score)}]${lines}`);
    n.children.forEach((c) => walk(c, depth + 1));
  };
  x.mindMap.forEach((root) => walk(root, 0));
  return out.join('\n');
}
