// Each note's version for the index as it is now, read once per index generation for all that retrieval
// keeps note by note across generations (the graph's title hits, the bigram counts).
import type { RetrievalContext } from './retriever.js';
import { noteVersions } from '../store/note-versions.js';

export function indexNoteVersions(ctx: RetrievalContext): Map<number, string | null> {
  return ctx.cache.derived('note-versions', () => noteVersions(ctx.db));
}
