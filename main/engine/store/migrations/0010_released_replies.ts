// Migration 10: a piece's reply outlives the note that held it, for a while. A note removed and brought
// back (a branch switched and back, a note moved to another library folder, an edit undone) is found
// by the same piece keys, and its pieces need not go to the model again. Kept by library folder, so
// removing a folder forgets them with it.
export default /* sql */ `
CREATE TABLE released_replies (
  key         TEXT PRIMARY KEY,
  reply       TEXT NOT NULL,
  root        TEXT NOT NULL,
  released_at INTEGER NOT NULL
);
CREATE INDEX released_replies_root ON released_replies(root);
CREATE INDEX released_replies_age ON released_replies(released_at);
`;
