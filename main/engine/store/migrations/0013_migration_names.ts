// Migration 13: each migration is recorded by name, not only counted in user_version. Numbers were
// reassigned while branches merged, so an index from an earlier build could hold a number whose
// migrations it never ran; names say what an index has.
export default /* sql */ `
CREATE TABLE schema_migrations (
  name       TEXT PRIMARY KEY,
  version    INTEGER NOT NULL,
  applied_at INTEGER NOT NULL
);
`;
