// Which note a link leads to, as the notes apps that wrote it decide: one note, never every note that
// shares a name. A link that names a path (`[[Install/Configuration]]`, SilverBullet's page names;
// `[[user/index]]` in an Obsidian vault; a Markdown link to `../guides/setup.md`) leads to the note at that
// path; a bare name leads to the note titled so, else aliased so, else with that file name. Where several
// notes qualify (two folders each with an `index.md`), the one the link most likely means (nearest): in the
// linking note's library folder, named with the link's own case, in its folder, then the shortest path.
import path from 'node:path';
import { withoutLinkPosition } from '../../ingest/links.js';
import { normalizeName } from '../../store/names.js';
import { fileNameKeys, noteNameKeys, type NamedNote } from './title-mentions.js';

/** Where a note's file lies: its library folder and its path inside it. */
export interface NotePlace {
  root: string;
  relPath: string;
}

/** A note as links find it: by its names and by where its file lies. */
export type LinkableNote = NamedNote & NotePlace;

/** The note a link written in the note at `from` leads to, if any does. */
export type LinkResolver = (target: string, from: NotePlace) => LinkableNote | undefined;

const NOTE_EXTENSION = /\.(md|markdown|txt)$/i;

/** A path as links name it: case, Unicode form and the note extension ignored. */
function pathKey(p: string): string {
  return path.posix
    .normalize(p.normalize('NFC').replace(NOTE_EXTENSION, ''))
    .toLowerCase()
    .split('/')
    .filter((s) => s && s !== '.')
    .join('/');
}

function folderOf(relPath: string): string {
  const slash = relPath.lastIndexOf('/');
  return slash < 0 ? '' : relPath.slice(0, slash);
}

/**
 * The candidate the link most likely means: in the linking note's library folder; named exactly as the
 * link writes it, case and all (SilverBullet's page names are case-sensitive: `[[Tag]]` is `Tag.md`, not
 * `Object/tag.md`); in the linking note's folder; then the shortest path.
 */
function nearest(candidates: LinkableNote[] | undefined, from: NotePlace, written: string): LinkableNote | undefined {
  if (!candidates?.length) return undefined;
  if (candidates.length === 1) return candidates[0];
  const folder = folderOf(from.relPath);
  const exact = (n: LinkableNote) => n.fileName === written || n.relPath.replace(NOTE_EXTENSION, '') === written;
  const rank = (n: LinkableNote) => [n.root === from.root ? 0 : 1, exact(n) ? 0 : 1, folderOf(n.relPath) === folder ? 0 : 1, n.relPath.length];
  const order = (a: LinkableNote, b: LinkableNote) => {
    const [ra, rb] = [rank(a), rank(b)];
    for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return ra[i]! - rb[i]!;
    return a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : a.id - b.id;
  };
  return [...candidates].sort(order)[0];
}

function add<K, V>(m: Map<K, V[]>, key: K, value: V): void {
  const list = m.get(key);
  if (list) list.push(value);
  else m.set(key, [value]);
}

export function linkResolver(notes: LinkableNote[]): LinkResolver {
  const byPath = new Map<string, LinkableNote[]>();
  const byName = new Map<string, LinkableNote[]>();
  const byFile = new Map<string, LinkableNote[]>();
  for (const n of notes) {
    add(byPath, pathKey(n.relPath), n);
    for (const key of noteNameKeys(n)) add(byName, key, n);
    for (const key of fileNameKeys(n)) add(byFile, key, n);
  }
  return (raw, from) => {
    const target = withoutLinkPosition(raw.replace(/[#|^].*$/, '').trim());
    const last = target.slice(target.lastIndexOf('/') + 1).replace(NOTE_EXTENSION, '');
    if (!last) return undefined;
    const written = target.replace(/^\/+/, '').replace(NOTE_EXTENSION, '');
    // A path (or a file with its extension): from the library folder's top, else from the linking
    // note's folder (`./`, `../`, or a folder beside it), else the notes whose path ends so — the
    // shortest path that tells the note apart, as Obsidian writes links by default.
    if (target.includes('/') || NOTE_EXTENSION.test(target)) {
      const relative = /^\.\.?\//.test(target);
      const fromTop = relative ? undefined : nearest(byPath.get(pathKey(target.replace(/^\/+/, ''))), from, written);
      if (fromTop) return fromTop;
      const fromFolder = nearest(byPath.get(pathKey(path.posix.join(folderOf(from.relPath), target))), from, written);
      if (fromFolder) return fromFolder;
      const tail = `/${pathKey(target)}`;
      const ending = byFile.get(normalizeName(last))?.filter((n) => `/${pathKey(n.relPath)}`.endsWith(tail));
      if (ending?.length) return nearest(ending, from, written);
    }
    // A name: the note titled or aliased so, else the note with that file name. A note does not link to
    // itself by a name it shares with another (`[[CONFIG]]` in `API/config.md`).
    const key = normalizeName(last);
    const other = (list: LinkableNote[] | undefined) => list?.filter((n) => n.root !== from.root || n.relPath !== from.relPath);
    const named = other(byName.get(key));
    return nearest(named?.length ? named : other(byFile.get(key)), from, written);
  };
}
