// Migration 12: what retrieval derives from the whole index (the entity graph, the Han bigram counts)
// kept for the next process. A `loci ask`, or the app's first question after a start, began with nothing
// in memory and spent most of its time deriving them again (2.2 s of 2.8 s at 10k news); they are read
// back when the index has not changed since (the fingerprint names the index generation, the embedder and
// the value's format).
export default /* sql */ `
CREATE TABLE derived_snapshots (
  key         TEXT PRIMARY KEY,
  fingerprint TEXT NOT NULL,
  data        BLOB NOT NULL,
  written_at  INTEGER NOT NULL
);
`;
