// Migration 5: indexes for the delete path. Re-indexing a changed note deletes its old rows, and each
// deleted row makes SQLite look for rows that point at it (foreign keys, the embeddings triggers). Without
// these indexes each of those look-ups scanned a whole table, so one changed note cost time in
// proportion to the whole index (0.16 s at 225 notes, seconds at 10,000).
export default /* sql */ `
CREATE INDEX IF NOT EXISTS fcis_chunk ON fcis(chunk_id);
CREATE INDEX IF NOT EXISTS entity_mentions_chunk ON entity_mentions(chunk_id);
CREATE INDEX IF NOT EXISTS triples_chunk ON triples(chunk_id);
CREATE INDEX IF NOT EXISTS mm_nodes_fci ON mm_nodes(fci_id);
CREATE INDEX IF NOT EXISTS doc_edges_dst ON doc_edges(dst);
CREATE INDEX IF NOT EXISTS jobs_document ON jobs(document_id);
CREATE INDEX IF NOT EXISTS embeddings_owner ON embeddings(owner_kind, owner_id);
`;
