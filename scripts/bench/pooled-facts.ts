// Facts pooled in their passage's pass against facts embedded alone, on an index built with the model
// (docs/tuning.md, issue 42): for the first N passages that have facts, how many facts are placed, how
// alike the facts of one passage are (mean pairwise cosine), and each pooled vector's cosine to the fact
// embedded alone — for shares 0–1 of the passage's vector taken out (embed/passage-facts.ts keeps 0.5).
//   npx tsx scripts/bench/pooled-facts.ts --model <cache>/minilm-l6-v2-int8 --db <index.db> [--passages 120]
import { parseArgs } from 'node:util';
import { dot } from '../../main/engine/embed/embedder.js';
import { locateFact } from '../../main/engine/embed/fact-spans.js';
import { createTransformersEmbedder } from '../../main/engine/embed/transformers-embedder.js';
import { openDb } from '../../main/engine/store/db.js';

const { values } = parseArgs({ options: { model: { type: 'string' }, db: { type: 'string' }, passages: { type: 'string', default: '120' } } });
if (!values.model || !values.db) {
  console.error('usage: npx tsx scripts/bench/pooled-facts.ts --model <model folder> --db <index.db> [--passages n]');
  process.exit(2);
}
const db = openDb(values.db, { readonly: true });
const passages = db
  .prepare(`SELECT c.id, COALESCE(d.title, '') || ' ' || c.text FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id IN (SELECT chunk_id FROM fcis) ORDER BY c.id LIMIT ?`)
  .raw()
  .all(Number(values.passages)) as [number, string][];
const embedder = await createTransformersEmbedder({ modelDir: values.model });
let facts = 0;
const items = passages.map(([id, text]) => {
  const own = (db.prepare('SELECT text FROM fcis WHERE chunk_id = ?').pluck().all(id) as string[]).map((f) => ({ f, span: locateFact(text, f) }));
  facts += own.length;
  const placed = own.filter((x) => x.span !== null);
  return { text, facts: placed.map((x) => x.f), spans: placed.map((x) => x.span!) };
});
const pooled = await embedder.embedWithSpans!(items.map(({ text, spans }) => ({ text, spans })));
const shares = [0, 0.25, 0.5, 0.75, 1];
const toAlone: number[][] = shares.map(() => []);
const alike: number[][] = shares.map(() => []);
const aloneAlike: number[] = [];
let placed = 0;
let pastCut = 0;
const pairs = (vs: Float32Array[], out: number[]) => vs.forEach((a, i) => vs.slice(i + 1).forEach((b) => out.push(dot(a, b))));
for (const [i, r] of pooled.entries()) {
  placed += items[i]!.facts.length;
  const kept = r.spans.flatMap((v, j) => (v ? [{ v, fact: items[i]!.facts[j]! }] : []));
  pastCut += r.spans.length - kept.length;
  if (!kept.length) continue;
  const alone = await embedder.embed(kept.map((k) => k.fact));
  pairs(alone, aloneAlike);
  shares.forEach((share, s) => {
    const vs = kept.map(({ v }) => {
      const w = v.map((x, k) => x - share * r.vector[k]!);
      const n = Math.hypot(...w);
      return w.map((x) => x / n);
    });
    vs.forEach((v, j) => toAlone[s]!.push(dot(v, alone[j]!)));
    pairs(vs, alike[s]!);
  });
}
const mean = (a: number[]) => (a.reduce((s, x) => s + x, 0) / Math.max(1, a.length)).toFixed(3);
console.log(`${passages.length} passages, ${facts} facts: ${placed} placed, ${pastCut} of them past the model's cut`);
console.log(`facts of one passage embedded alone: mean cosine to each other ${mean(aloneAlike)}`);
for (const [s, share] of shares.entries()) console.log(`pooled, ${share} of the passage out: to each other ${mean(alike[s]!)}, to the fact alone ${mean(toAlone[s]!)}`);
await embedder.dispose?.();
db.close();
