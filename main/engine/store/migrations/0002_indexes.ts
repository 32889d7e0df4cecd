// Migration 2: indexes for the lookups the engine makes by child key. Without them every deleted chunk
// scanned fcis, triples and entity_mentions in full (ON DELETE CASCADE looks children up by chunk_id),
// every deleted fci scanned mm_nodes (SET NULL by fci_id), every deleted or re-upserted document scanned
// doc_edges by dst and jobs, and each deleted row's trigger walked every embedding of its kind
// (the primary key leads with owner_kind, model). EXPLAIN QUERY PLAN before and after:
// `npx tsx scripts/explain-plans.ts`; test/store/indexes.test.ts keeps them in use.
export default /* sql */ `
CREATE INDEX fcis_chunk ON fcis(chunk_id);
CREATE INDEX triples_chunk ON triples(chunk_id);
CREATE INDEX entity_mentions_chunk ON entity_mentions(chunk_id);
CREATE INDEX mm_nodes_fci ON mm_nodes(fci_id) WHERE fci_id IS NOT NULL;
CREATE INDEX doc_edges_dst ON doc_edges(dst);
CREATE INDEX jobs_document ON jobs(document_id);
CREATE INDEX chat_messages_chat ON chat_messages(chat_id);
CREATE INDEX embeddings_owner ON embeddings(owner_kind, owner_id);
`;
