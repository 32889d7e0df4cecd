// Migration 7: the full-text table over FCIs goes. No retriever ever read it (BM25 runs over chunks,
// whose text holds every FCI's sentence), yet every index wrote one FTS row per sentence, segmented in
// the worker and inserted by the writer: on 10k news about a quarter of the writer's statements. The
// FCI delete trigger keeps its other duty, dropping the FCI's vectors.
export default /* sql */ `
DROP TRIGGER fcis_ad;
DROP TABLE fcis_fts;
CREATE TRIGGER fcis_ad AFTER DELETE ON fcis BEGIN
  DELETE FROM embeddings WHERE owner_kind = 'fci' AND owner_id = old.id;
END;
`;
