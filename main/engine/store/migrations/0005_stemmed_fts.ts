// Migration 5: BM25 over chunks matches English words by their stem (FTS5's porter tokenizer over
// unicode61), so a question asking about "exporting", "loading" or "tags" finds the note that says
// "export", "load" or "tag". Chinese words and other non-English tokens pass through unchanged. The
// segmented text is kept as it is; only the FTS index is rebuilt from it (the delete trigger names the
// table, so it is dropped and made again around the swap).
export default /* sql */ `
DROP TRIGGER chunks_ad;
CREATE VIRTUAL TABLE chunks_fts_stemmed USING fts5(seg, tokenize = 'porter unicode61 remove_diacritics 2');
INSERT INTO chunks_fts_stemmed (rowid, seg) SELECT rowid, seg FROM chunks_fts;
DROP TABLE chunks_fts;
ALTER TABLE chunks_fts_stemmed RENAME TO chunks_fts;
CREATE TRIGGER chunks_ad AFTER DELETE ON chunks BEGIN
  DELETE FROM chunks_fts WHERE rowid = old.id;
  DELETE FROM embeddings WHERE owner_kind = 'chunk' AND owner_id = old.id;
END;
`;
