// What an index's schema really holds, read from sqlite_master, and what each migration adds or removes
// in it (learnt by running the migrations on an in-memory database). An index whose recorded numbers
// cannot be trusted is judged by these fingerprints: a migration is there when its effects are.
import { openSqlite } from './sqlite.js';
import type { Db } from './db.js';
import { migrations } from './migrations/index.js';

/** `type:name` → the statement SQLite keeps for it (whitespace collapsed). */
export type SchemaObjects = Map<string, string>;

export type MigrationState = 'applied' | 'missing' | 'partial';

export interface MigrationEffects {
  /** Objects this migration leaves as the current schema has them (created, or last changed, here). */
  present: SchemaObjects;
  /** Objects it removes that no later migration brings back. */
  absent: string[];
}

export function schemaObjects(db: Db): SchemaObjects {
  const rows = db
    .prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type, name")
    .all() as { type: string; name: string; sql: string | null }[];
  return new Map(rows.map((r) => [`${r.type}:${r.name}`, (r.sql ?? '').replace(/\s+/g, ' ').trim()]));
}

let fresh: SchemaObjects[] | null = null;

/** The schema after each migration (index 0: empty; i: after migrations[i - 1]), built once in memory. */
export function freshSchemas(): SchemaObjects[] {
  if (fresh) return fresh;
  const db = openSqlite(':memory:');
  try {
    const out: SchemaObjects[] = [new Map()];
    for (const m of migrations) {
      db.exec(m.sql);
      out.push(schemaObjects(db));
    }
    fresh = out;
    return out;
  } finally {
    db.close();
  }
}

export function freshSchema(): SchemaObjects {
  const all = freshSchemas();
  return all[all.length - 1]!;
}

/** Each migration's fingerprint, in the order of `migrations`. */
export function migrationEffects(): MigrationEffects[] {
  const s = freshSchemas();
  const last = freshSchema();
  return migrations.map((_, i) => {
    const before = s[i]!;
    const after = s[i + 1]!;
    const present: SchemaObjects = new Map();
    for (const [key, sql] of after) {
      // Attributed to the last migration that shaped it, so an earlier one is not judged by a later change.
      const changedHere = before.get(key) !== sql;
      const changedLater = s.slice(i + 2).some((later, j) => later.get(key) !== (s[i + 1 + j]!.get(key)));
      if (changedHere && !changedLater && last.get(key) === sql) present.set(key, sql);
    }
    const absent = [...before.keys()].filter((key) => !after.has(key) && !last.has(key));
    return { present, absent };
  });
}

/** Whether each migration's effects are in `db`: all of them, none, or some (a build that shipped half of one). */
export function migrationStates(db: Db): MigrationState[] {
  const have = schemaObjects(db);
  return migrationEffects().map(({ present, absent }) => {
    const checks = [...[...present].map(([key, sql]) => have.get(key) === sql), ...absent.map((key) => !have.has(key))];
    const held = checks.filter(Boolean).length;
    if (checks.length === 0 || held === checks.length) return 'applied';
    return held === 0 ? 'missing' : 'partial';
  });
}

/** How `db`'s schema differs from a fresh index's: objects missing, extra, or shaped otherwise. */
export function schemaDifferences(db: Db): { missing: string[]; extra: string[]; changed: string[] } {
  const have = schemaObjects(db);
  const want = freshSchema();
  return {
    missing: [...want.keys()].filter((k) => !have.has(k)),
    extra: [...have.keys()].filter((k) => !want.has(k)),
    changed: [...want.keys()].filter((k) => have.has(k) && have.get(k) !== want.get(k)),
  };
}
