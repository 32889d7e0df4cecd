// Prints SQLite's query plans for the SQL the engine really runs (traced while indexing a notes folder,
// answering with every method, drawing the graph and deleting a note), the foreign-key lookups a
// delete cascade makes, and the trigger bodies. Steps that scan a whole big table are marked `!!`.
//   npx tsx scripts/explain-plans.ts [--notes <folder>] [--json]
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { runQueryWorkload } from '../main/engine/diagnostics/query-workload.js';
import { explain, bigScans, foreignKeyLookups, planStatements, seeksOn, triggerStatements } from '../main/engine/store/query-plans.js';

const { values } = parseArgs({
  options: {
    notes: { type: 'string', default: fileURLToPath(new URL('../resources/sample-notes', import.meta.url)) },
    json: { type: 'boolean', default: false },
  },
});
const questions = ['How long is the development time for the Guji roast?', 'Who runs Kestrel Coffee Works?', 'water hardness for V60'];

const { traced, dispose } = await runQueryWorkload(values.notes!, questions);
try {
  const statements = planStatements(traced.db, traced.statements());
  const fks = foreignKeyLookups(traced.db);
  const triggers = triggerStatements(traced.db).map((t) => {
    const plan = explain(traced.db, t.sql);
    return { ...t, plan, scans: bigScans(plan, t.sql), seeks: seeksOn(plan, t.keyColumns) };
  });
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ statements, foreignKeys: fks, triggers }, null, 2)}\n`);
  } else {
    const mark = (line: string, bad: boolean) => `${bad ? '!! ' : '   '}${line}`;
    const out: string[] = ['# Statements the engine ran', ''];
    for (const s of statements) {
      out.push(s.sql.length > 300 ? `${s.sql.slice(0, 300)}…` : s.sql);
      for (const l of s.plan) out.push(mark(l, s.scans.includes(l)));
      out.push('');
    }
    out.push('# Foreign-key lookups of a delete cascade', '');
    for (const f of fks) out.push(`${f.indexed ? '   ' : '!! '}${f.child}.${f.column} -> ${f.parent}: ${f.plan.join(' / ')}`);
    out.push('', '# Trigger statements (once per deleted row)', '');
    for (const t of triggers) out.push(`${t.scans.length || !t.seeks ? '!! ' : '   '}${t.trigger}: ${t.sql}  =>  ${t.plan.join(' / ')}`);
    const flagged = statements.filter((s) => s.scans.length).length + fks.filter((f) => !f.indexed).length + triggers.filter((t) => t.scans.length || !t.seeks).length;
    out.push('', `${statements.length} statements, ${fks.length} foreign keys, ${triggers.length} trigger statements; ${flagged} with a full scan of a big table.`);
    process.stdout.write(`${out.join('\n')}\n`);
  }
} finally {
  dispose();
}
