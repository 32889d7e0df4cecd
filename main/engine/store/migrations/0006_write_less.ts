// Migration 6, two cuts in what indexing writes and reads per run:
// - The full-text table over FCIs goes. No retriever ever read it (BM25 runs over chunks, whose text
//   holds every FCI's sentence), yet every index wrote one FTS row per sentence, segmented in the worker
//   and inserted by the writer. The FCI delete trigger keeps its other duty, dropping the FCI's vectors.
// - Entities that lost a mention or a triple are listed as they lose it (by trigger, in the transaction
//   that deletes the reference, so a killed run keeps the list), and the end-of-run sweep for entities
//   nothing supports looks only at those, not at every entity: at 10k news that sweep read the whole
//   entities table on every one-note edit. The list starts with every entity, so the first run after
//   the upgrade sweeps as before.
export default /* sql */ `
DROP TRIGGER fcis_ad;
DROP TABLE fcis_fts;
CREATE TRIGGER fcis_ad AFTER DELETE ON fcis BEGIN
  DELETE FROM embeddings WHERE owner_kind = 'fci' AND owner_id = old.id;
END;

CREATE TABLE entity_unsupported_pending (entity_id INTEGER PRIMARY KEY);
INSERT INTO entity_unsupported_pending (entity_id) SELECT id FROM entities;
CREATE TRIGGER entity_mentions_ad AFTER DELETE ON entity_mentions BEGIN
  INSERT OR IGNORE INTO entity_unsupported_pending (entity_id) VALUES (old.entity_id);
END;
CREATE TRIGGER triples_ad AFTER DELETE ON triples BEGIN
  INSERT OR IGNORE INTO entity_unsupported_pending (entity_id) VALUES (old.subject_id), (old.object_id);
END;
`;
