// Migration 11: a vector outlives the row it was made for, for a while, as a model reply does (migration
// 10). An edited note's model pass writes facts it had before (their replies reused); a note brought back
// (a branch switched and back, a move between library folders) writes every text it had. With a model
// embedder each text costs real time to embed again; a released vector is found by its model and text.
export default /* sql */ `
CREATE TABLE released_vectors (
  model       TEXT NOT NULL,
  text        TEXT NOT NULL,
  dim         INTEGER NOT NULL,
  vector      BLOB NOT NULL,
  root        TEXT NOT NULL,
  released_at INTEGER NOT NULL,
  PRIMARY KEY (model, text)
);
CREATE INDEX released_vectors_root ON released_vectors(root);
CREATE INDEX released_vectors_age ON released_vectors(released_at);
`;
