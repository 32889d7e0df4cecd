// Migration 9: the model pass keeps each piece's reply (its facts under routes, as checked), keyed by
// what the reply depends on (extract.ts pieceKey). Editing one paragraph of a long note then sends only
// that piece to the model again. Rows belong to the note whose last pass kept them and go with it; a
// reply is found by key, whichever note kept it (a note copied or split keeps its pieces' replies too).
export default /* sql */ `
CREATE TABLE kept_replies (
  document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  key         TEXT NOT NULL,
  reply       TEXT NOT NULL,
  PRIMARY KEY (document_id, key)
);
CREATE INDEX kept_replies_key ON kept_replies(key);
`;
