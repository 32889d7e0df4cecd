// A note's links resolved to the notes they lead to (as the graph resolves them: link-resolution.ts), the
// notes that link to it (its backlinks), and its tags (front matter `tags:` and `#tags` in its prose).
import { findHashtags } from '../ingest/links.js';
import { frontMatterTags } from '../ingest/parse.js';
import type { Db } from '../store/db.js';
import { graphNotes } from '../store/entity-graph.js';
import { linksNaming, linksWrittenIn, tagSources, type TagSource } from '../store/note-links.js';
import type { NoteLinks, NoteTags } from '../api.js';
import { namedNote } from './walk/entity-graph.js';
import { linkResolver, type LinkableNote } from './walk/link-resolution.js';
import { fileNameKeys, noteNameKeys } from './walk/title-mentions.js';

const ref = (n: LinkableNote) => ({ docId: n.id, docPath: n.relPath, title: n.title });

/** Null when the note is not an indexed one. */
export function noteLinks(db: Db, docId: number): NoteLinks | null {
  const notes = graphNotes(db).map(namedNote);
  const self = notes.find((n) => n.id === docId);
  if (!self) return null;
  const byId = new Map(notes.map((n) => [n.id, n]));
  const resolve = linkResolver(notes);
  const links = linksWrittenIn(db, docId).map((l) => {
    const to = resolve(l.target, self);
    return { target: l.target, line: l.line, note: to ? ref(to) : null };
  });
  // Candidates by the names the note is linked by, kept only where the link really resolves to it.
  const backlinks = new Map<number, NoteLinks['backlinks'][number]>();
  for (const l of linksNaming(db, [...new Set([...noteNameKeys(self), ...fileNameKeys(self)])])) {
    const from = byId.get(l.docId);
    if (!from || l.docId === docId || resolve(l.target, from)?.id !== docId) continue;
    const seen = backlinks.get(l.docId);
    if (seen) seen.count++;
    else backlinks.set(l.docId, { ...ref(from), line: l.line, count: 1 });
  }
  const order = (a: { title: string; docPath: string }, b: { title: string; docPath: string }) => a.title.localeCompare(b.title) || a.docPath.localeCompare(b.docPath);
  return { links, backlinks: [...backlinks.values()].sort(order), tags: tagsOf(tagSources(db, docId)[0]!) };
}

/** Every indexed note's tags (notes without any left out). */
export function libraryTags(db: Db): NoteTags {
  return tagSources(db).flatMap((s) => {
    const tags = tagsOf(s);
    return tags.length ? [{ docId: s.docId, tags }] : [];
  });
}

function tagsOf(source: TagSource): string[] {
  const tags = [...frontMatterTags(JSON.parse(source.frontMatter) as Record<string, unknown>), ...findHashtags(source.prose ?? '')];
  // One spelling per tag, the first seen: `#Coffee` and `coffee` are the same tag.
  const seen = new Map<string, string>();
  for (const t of tags) if (!seen.has(t.toLowerCase())) seen.set(t.toLowerCase(), t);
  return [...seen.values()];
}
