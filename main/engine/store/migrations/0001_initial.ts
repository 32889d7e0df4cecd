// Migration 1: the fast-mode index. Every derived row carries document, chunk, line range and extractor,
// and every derived table cascades from `documents`, so deleting a note removes exactly what it contributed.
export default /* sql */ `
CREATE TABLE documents (
  id           INTEGER PRIMARY KEY,
  root         TEXT NOT NULL,
  rel_path     TEXT NOT NULL,
  title        TEXT NOT NULL DEFAULT '',
  lang         TEXT NOT NULL DEFAULT 'other',
  content_hash TEXT,
  mtime        REAL,
  size         INTEGER,
  status       TEXT NOT NULL CHECK (status IN ('indexed','skipped','error')),
  error        TEXT,
  front_matter TEXT NOT NULL DEFAULT '{}',
  indexed_at   TEXT,
  UNIQUE (root, rel_path)
);

CREATE TABLE chunks (
  id           INTEGER PRIMARY KEY,
  document_id  INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  ord          INTEGER NOT NULL,
  heading_path TEXT NOT NULL DEFAULT '[]',
  text         TEXT NOT NULL,
  line_from    INTEGER NOT NULL,
  line_to      INTEGER NOT NULL,
  is_code      INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX chunks_doc ON chunks(document_id);

CREATE TABLE links (
  document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  target      TEXT NOT NULL,
  target_norm TEXT NOT NULL,
  line        INTEGER NOT NULL
);
CREATE INDEX links_doc ON links(document_id);
CREATE INDEX links_target ON links(target_norm);

CREATE TABLE fcis (
  id           INTEGER PRIMARY KEY,
  document_id  INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  chunk_id     INTEGER REFERENCES chunks(id) ON DELETE CASCADE,
  text         TEXT NOT NULL,
  line_from    INTEGER NOT NULL,
  line_to      INTEGER NOT NULL,
  extractor    TEXT NOT NULL,
  check_rouge  REAL,
  check_sim    REAL,
  check_passed INTEGER
);
CREATE INDEX fcis_doc ON fcis(document_id, extractor);

CREATE TABLE mm_nodes (
  id          INTEGER PRIMARY KEY,
  document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  parent_id   INTEGER REFERENCES mm_nodes(id) ON DELETE CASCADE,
  kind        TEXT NOT NULL CHECK (kind IN ('topic','route','fact')),
  text        TEXT NOT NULL,
  path_text   TEXT NOT NULL,
  depth       INTEGER NOT NULL,
  ord         INTEGER NOT NULL,
  fci_id      INTEGER REFERENCES fcis(id) ON DELETE SET NULL,
  line_from   INTEGER,
  line_to     INTEGER,
  extractor   TEXT NOT NULL
);
CREATE INDEX mm_nodes_doc ON mm_nodes(document_id, extractor);
CREATE INDEX mm_nodes_parent ON mm_nodes(parent_id);
CREATE INDEX mm_nodes_kind ON mm_nodes(kind);

-- Entities are shared across notes; a row lives while at least one mention (from any note) supports it.
CREATE TABLE entities (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  norm TEXT NOT NULL UNIQUE,
  type TEXT
);

CREATE TABLE entity_mentions (
  entity_id   INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  chunk_id    INTEGER REFERENCES chunks(id) ON DELETE CASCADE,
  line_from   INTEGER NOT NULL,
  line_to     INTEGER NOT NULL,
  extractor   TEXT NOT NULL
);
CREATE INDEX entity_mentions_entity ON entity_mentions(entity_id);
CREATE INDEX entity_mentions_doc ON entity_mentions(document_id);

CREATE TABLE triples (
  id          INTEGER PRIMARY KEY,
  document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  chunk_id    INTEGER REFERENCES chunks(id) ON DELETE CASCADE,
  subject_id  INTEGER NOT NULL REFERENCES entities(id),
  relation    TEXT NOT NULL,
  object_id   INTEGER NOT NULL REFERENCES entities(id),
  line_from   INTEGER NOT NULL,
  line_to     INTEGER NOT NULL,
  extractor   TEXT NOT NULL
);
CREATE INDEX triples_doc ON triples(document_id);
CREATE INDEX triples_subject ON triples(subject_id);
CREATE INDEX triples_object ON triples(object_id);

-- Derived from many documents at once: rebuilt after every indexing run (cheap, top-N queries).
CREATE TABLE doc_edges (
  src    INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  dst    INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  weight REAL NOT NULL,
  PRIMARY KEY (src, dst)
);

-- Documents changed since the document layer was last rebuilt; written with each document, so a
-- killed run still knows what to redo. No FK: a deleted document must stay listed until then.
CREATE TABLE graph_pending (document_id INTEGER PRIMARY KEY);

CREATE TABLE super_nodes (
  id   INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('topic','fact')),
  text TEXT NOT NULL
);
CREATE TABLE super_members (
  super_id INTEGER NOT NULL REFERENCES super_nodes(id) ON DELETE CASCADE,
  node_id  INTEGER NOT NULL REFERENCES mm_nodes(id) ON DELETE CASCADE,
  sim      REAL NOT NULL,
  PRIMARY KEY (super_id, node_id)
);
CREATE INDEX super_members_node ON super_members(node_id);

-- Vectors keyed by the model that made them; owner_kind: doc | chunk | fci | mm | entity.
CREATE TABLE embeddings (
  owner_kind TEXT NOT NULL,
  owner_id   INTEGER NOT NULL,
  model      TEXT NOT NULL,
  dim        INTEGER NOT NULL,
  vector     BLOB NOT NULL,
  PRIMARY KEY (owner_kind, model, owner_id)
);

-- BM25. The 'seg' column holds the text pre-segmented into space-separated words (jieba for Chinese),
-- so unicode61 tokenisation works for every language.
CREATE VIRTUAL TABLE chunks_fts USING fts5(seg, tokenize = 'unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE fcis_fts USING fts5(seg, tokenize = 'unicode61 remove_diacritics 2');

-- Cascading deletes do not reach virtual tables or the polymorphic embeddings table: triggers do.
CREATE TRIGGER chunks_ad AFTER DELETE ON chunks BEGIN
  DELETE FROM chunks_fts WHERE rowid = old.id;
  DELETE FROM embeddings WHERE owner_kind = 'chunk' AND owner_id = old.id;
END;
CREATE TRIGGER fcis_ad AFTER DELETE ON fcis BEGIN
  DELETE FROM fcis_fts WHERE rowid = old.id;
  DELETE FROM embeddings WHERE owner_kind = 'fci' AND owner_id = old.id;
END;
CREATE TRIGGER mm_nodes_ad AFTER DELETE ON mm_nodes BEGIN
  DELETE FROM embeddings WHERE owner_kind = 'mm' AND owner_id = old.id;
END;
CREATE TRIGGER documents_ad AFTER DELETE ON documents BEGIN
  DELETE FROM embeddings WHERE owner_kind = 'doc' AND owner_id = old.id;
END;
CREATE TRIGGER entities_ad AFTER DELETE ON entities BEGIN
  DELETE FROM embeddings WHERE owner_kind = 'entity' AND owner_id = old.id;
END;

CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE jobs (
  id          INTEGER PRIMARY KEY,
  kind        TEXT NOT NULL,
  document_id INTEGER REFERENCES documents(id) ON DELETE CASCADE,
  extractor   TEXT,
  status      TEXT NOT NULL CHECK (status IN ('queued','running','done','failed')),
  attempts    INTEGER NOT NULL DEFAULT 0,
  error       TEXT,
  updated_at  TEXT NOT NULL
);
CREATE INDEX jobs_status ON jobs(kind, status);

CREATE TABLE chats (
  id         INTEGER PRIMARY KEY,
  title      TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE chat_messages (
  id         INTEGER PRIMARY KEY,
  chat_id    INTEGER NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
  role       TEXT NOT NULL CHECK (role IN ('user','assistant')),
  text       TEXT NOT NULL,
  citations  TEXT NOT NULL DEFAULT '[]',
  method     TEXT,
  model      TEXT,
  created_at TEXT NOT NULL
);
`;
