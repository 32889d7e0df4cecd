// Migration 3: library folders become rows with their scope (include/exclude globs), replacing the
// 'roots' setting (a JSON list). Written idempotently: migrations of parallel branches may land in any order.
export default /* sql */ `
CREATE TABLE IF NOT EXISTS library_folders (
  root     TEXT PRIMARY KEY,
  include  TEXT NOT NULL DEFAULT '[]',
  exclude  TEXT NOT NULL DEFAULT '[]',
  added_at TEXT NOT NULL DEFAULT (datetime('now'))
);
INSERT OR IGNORE INTO library_folders (root)
  SELECT j.value FROM settings s, json_each(s.value) j
   WHERE s.key = 'roots' AND json_valid(s.value) AND json_type(s.value) = 'array' AND j.type = 'text';
DELETE FROM settings WHERE key = 'roots';
`;
