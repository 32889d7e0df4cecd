// Migration 8: a note's language is judged after its rows are written (ingest/note-language.ts), and
// documents.lang is '' until then: the notes awaiting judgement are found without reading every document.
// (The condition is a literal: SQLite uses a partial index only for a query that spells the same one.)
export default /* sql */ `
CREATE INDEX documents_unjudged_lang ON documents(id) WHERE lang = '';
`;
