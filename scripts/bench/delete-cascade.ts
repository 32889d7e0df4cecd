// Deleting notes with and without migration 0002's indexes, on one index copied twice (same run, same
// data), so the figure is a ratio that contention affects on both sides.
//   npx tsx scripts/bench/delete-cascade.ts [copies of the sample notes, default 60]
import { copyFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { openDb } from '../../main/engine/store/db.js';
import { createStaticEmbedder } from '../../main/engine/embed/static-embedder.js';
import { indexFolder } from '../../main/engine/index/run.js';
import { deleteDocument } from '../../main/engine/store/documents.js';

const copies = Number(process.argv[2] ?? 60);
const dir = mkdtempSync(join(tmpdir(), 'loci-delete-bench-'));
for (let i = 0; i < copies; i++) cpSync(fileURLToPath(new URL('../../resources/sample-notes', import.meta.url)), join(dir, 'notes', `c${i}`), { recursive: true });
const file = join(dir, 'a.db');
const db = openDb(file);
let t = performance.now();
await indexFolder(db, await createStaticEmbedder(), join(dir, 'notes'));
console.log(`indexed ${db.prepare('select count(*) from documents').pluck().get()} notes in ${((performance.now() - t) / 1000).toFixed(1)} s;`, db.prepare("select (select count(*) from chunks) c, (select count(*) from fcis) f, (select count(*) from embeddings) e").get());
db.pragma('wal_checkpoint(TRUNCATE)');
db.close();
const noIdx = join(dir, 'b.db');
copyFileSync(file, noIdx);
const raw = new Database(noIdx);
for (const n of ['fcis_chunk', 'triples_chunk', 'entity_mentions_chunk', 'mm_nodes_fci', 'doc_edges_dst', 'jobs_document', 'chat_messages_chat', 'embeddings_owner']) raw.exec(`DROP INDEX IF EXISTS ${n}`);
raw.close();
for (const [label, f] of [['without 0002 indexes', noIdx], ['with 0002 indexes', file], ['without (again)', noIdx]] as const) {
  const d = new Database(f); d.pragma('foreign_keys = ON');
  const ids = d.prepare("select id from documents order by id limit 40").pluck().all() as number[];
  t = performance.now();
  d.transaction(() => { for (const id of ids) deleteDocument(d, id, 'release'); })();
  const ms = performance.now() - t;
  console.log(`${label}: deleted ${ids.length} notes in ${ms.toFixed(0)} ms (${(ms / ids.length).toFixed(1)} ms per note)`);
  d.close();
}
rmSync(dir, { recursive: true, force: true });
