// "SQL lives only in main/engine/store": lists every engine file outside store/ that still prepares
// SQL. The files moved so far must stay clean; the rest are reported (their owners move them, then
// they join MOVED and the list shrinks to nothing).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../fixtures/paths.js';

const ENGINE = path.join(REPO_ROOT, 'main/engine');
const MOVED = [
  'graph/graph-view.ts',
  'graph/related.ts',
  'embed/embed-missing.ts',
  'retrieve/contexts.ts',
  'retrieve/bm25.ts',
  'retrieve/dense.ts',
  'retrieve/hybrid.ts',
  'retrieve/loci/retriever.ts',
  'retrieve/ppr.ts',
  'retrieve/query.ts',
  'retrieve/rank-fusion.ts',
  'retrieve/hig/retriever.ts',
  'retrieve/pgr/retriever.ts',
  'answer/extractive.ts',
  'graph/walk/entity-graph.ts',
];

function filesPreparingSql(): { file: string; calls: number }[] {
  return readdirSync(ENGINE, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|mjs)$/.test(f) && !f.startsWith(`store${path.sep}`))
    .map((f) => ({ file: f.split(path.sep).join('/'), calls: (readFileSync(path.join(ENGINE, f), 'utf8').match(/\.prepare\(/g) ?? []).length }))
    .filter((f) => f.calls > 0)
    .sort((a, b) => b.calls - a.calls);
}

describe('SQL behind typed store modules', () => {
  it('the files moved so far prepare no SQL outside main/engine/store (the rest are listed)', () => {
    const found = filesPreparingSql();
    if (found.length) console.info(`SQL still outside store/ (${found.reduce((s, f) => s + f.calls, 0)} prepare calls):\n${found.map((f) => `  ${f.calls}  ${f.file}`).join('\n')}`);
    for (const f of MOVED) expect(readdirSync(path.dirname(path.join(ENGINE, f)))).toContain(path.basename(f));
    expect(found.filter((f) => MOVED.includes(f.file))).toEqual([]);
  });
});
