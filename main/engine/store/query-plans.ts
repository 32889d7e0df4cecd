// What SQLite does with the statements the engine really runs: a database handle that records every
// statement (with its values bound, as SQLite expands them), and EXPLAIN QUERY PLAN over what it
// recorded. Used by `scripts/explain-plans.ts` and the index test, so the plans checked are those of
// the shipped SQL, not of a copy.
import { openSqlite } from './sqlite.js';
import { openDb, type Db } from './db.js';

/** Tables that grow with the notes: a full scan of one of these in a per-query or per-row statement is a bug. */
export const BIG_TABLES = [
  'documents',
  'chunks',
  'links',
  'fcis',
  'mm_nodes',
  'entities',
  'entity_mentions',
  'triples',
  'doc_edges',
  'super_nodes',
  'super_members',
  'embeddings',
  'jobs',
  'chat_messages',
  'released_replies',
  'released_vectors',
] as const;

export interface TracedDb {
  db: Db;
  /** Every distinct statement run so far, values bound, in first-run order. */
  statements(): string[];
  close(): void;
}

/**
 * Opens `file` as a Loci index (migrating it first through the normal path) on a handle that records
 * each statement run. Same pragmas as `openDb`, so plans match production.
 */
export function openTracedDb(file: string): TracedDb {
  openDb(file).close();
  const seen = new Set<string>();
  const db = openSqlite(file, { verbose: (sql) => seen.add(String(sql)) });
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return { db, statements: () => [...seen], close: () => db.close() };
}

export interface StatementPlan {
  sql: string;
  plan: string[];
  /** Plan steps that read a whole big table (or all of one of its indexes). */
  scans: string[];
}

const isExplainable = (sql: string) => /^\s*(WITH|SELECT|UPDATE|DELETE|INSERT)\b/i.test(sql);

/** EXPLAIN QUERY PLAN of one statement, as indented lines (`SCAN chunks`, `SEARCH fcis USING INDEX …`). */
export function explain(db: Db, sql: string): string[] {
  const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { id: number; parent: number; detail: string }[];
  const depth = new Map<number, number>([[0, 0]]);
  return rows.map((r) => {
    const d = (depth.get(r.parent) ?? 0) + 1;
    depth.set(r.id, d);
    return `${'  '.repeat(d - 1)}${r.detail}`;
  });
}

/**
 * Columns that split a big table into a few large parts (a row kind, a model, a status): an index search
 * on these alone still reads a whole part — every chunk vector, say, once per note rewritten.
 */
const COARSE_COLUMNS = new Set(['owner_kind', 'model', 'status', 'extractor', 'is_code']);

/** The tables a statement names under an alias (`FROM embeddings e`), as its plan names them by the alias. */
function tableAliases(sql: string): Map<string, string> {
  const aliases = new Map<string, string>();
  const notAlias = '(?!(?:JOIN|ON|WHERE|LEFT|INNER|CROSS|NATURAL|USING|GROUP|ORDER|LIMIT|SET|AS)\\b)';
  for (const m of sql.matchAll(new RegExp(`\\b(?:FROM|JOIN)\\s+(\\w+)(?:\\s+AS)?\\s+${notAlias}(\\w+)`, 'gi'))) {
    const [, table, alias] = m;
    if (table && alias && (BIG_TABLES as readonly string[]).includes(table)) aliases.set(alias, table);
  }
  return aliases;
}

/**
 * Plan steps that read a whole big table, or a whole coarse part of one: `SCAN t`, `SCAN t USING
 * [COVERING] INDEX …` (a whole index is still all rows), and `SEARCH t USING INDEX i (owner_kind=?)`
 * where every constrained column is coarse. `sql` resolves the aliases the plan names tables by.
 */
export function bigScans(plan: string[], sql = ''): string[] {
  const aliases = tableAliases(sql);
  const big = (name: string | undefined) => (BIG_TABLES as readonly string[]).includes(aliases.get(name ?? '') ?? name ?? '');
  return plan.filter((line) => {
    const scan = /^\s*SCAN (\w+)/.exec(line);
    if (scan) return big(scan[1]);
    const search = /^\s*SEARCH (\w+) USING (?:COVERING )?INDEX \w+ \(([^)]*)\)/.exec(line);
    if (!search || !big(search[1])) return false;
    const columns = (search[2] ?? '').split(' AND ').map((c) => c.replace(/[=<>].*$/, '').trim());
    return columns.every((c) => COARSE_COLUMNS.has(c));
  });
}

/** Plans for every explainable statement recorded; statements differing only in bound values are planned once. */
export function planStatements(db: Db, statements: string[]): StatementPlan[] {
  const byShape = new Map<string, StatementPlan>();
  for (const sql of statements) {
    if (!isExplainable(sql)) continue;
    const shape = sql.replace(/'(?:[^']|'')*'|\b\d+(?:\.\d+)?\b/g, '?').replace(/\s+/g, ' ').trim();
    if (byShape.has(shape)) continue;
    let plan: string[];
    try {
      plan = explain(db, sql);
    } catch {
      continue; // e.g. a statement on a table a later statement dropped
    }
    byShape.set(shape, { sql: sql.replace(/\s+/g, ' ').trim(), plan, scans: bigScans(plan, sql) });
  }
  return [...byShape.values()];
}

export interface ForeignKeyLookup {
  child: string;
  column: string;
  parent: string;
  plan: string[];
  indexed: boolean;
}

/**
 * Deleting a parent row makes SQLite look up every child table by its foreign key (ON DELETE CASCADE /
 * SET NULL). EXPLAIN on the DELETE does not show those lookups, so this plans each one as the
 * equivalent `SELECT … WHERE child_col = ?`. An unindexed key means one full scan per deleted row.
 */
export function foreignKeyLookups(db: Db): ForeignKeyLookup[] {
  const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
  const out: ForeignKeyLookup[] = [];
  for (const child of tables) {
    const fks = db.prepare('SELECT "table" AS parent, "from" AS col FROM pragma_foreign_key_list(?)').all(child) as { parent: string; col: string }[];
    for (const fk of fks) {
      const plan = explain(db, `SELECT 1 FROM "${child}" WHERE "${fk.col}" = 1`);
      out.push({ child, column: fk.col, parent: fk.parent, plan, indexed: plan.some((l) => /\bSEARCH\b.*\bUSING\b/.test(l)) });
    }
  }
  return out;
}

/**
 * The statements inside the schema's triggers (run once per deleted row), with `old.x` / `new.x` bound
 * to a value so they can be planned, and the columns compared to those values: the plan must seek on
 * each of them. Tracing shows only the trigger's name, not these statements.
 */
export function triggerStatements(db: Db): { trigger: string; sql: string; keyColumns: string[] }[] {
  const rows = db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger'").all() as { name: string; sql: string }[];
  return rows.flatMap(({ name, sql }) => {
    const body = /\bBEGIN\b([\s\S]*)\bEND\b/i.exec(sql)?.[1] ?? '';
    return body
      .split(';')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => ({
        trigger: name,
        sql: s.replace(/\b(?:old|new)\.\w+/gi, '1'),
        keyColumns: [...s.matchAll(/\b(\w+)\s*=\s*(?:old|new)\.\w+/gi)].map((m) => m[1] ?? '').filter((c) => c !== 'rowid'),
      }));
  });
}

/** True when the plan seeks on every key column (`col=?`); a seek on a prefix only still walks many rows. */
export function seeksOn(plan: string[], columns: string[]): boolean {
  return columns.every((c) => plan.some((l) => new RegExp(`\\(.*\\b${c}=\\?`).test(l) && !l.includes('ANY(')));
}
