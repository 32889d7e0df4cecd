import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../main/engine/store/db.js';
import type { RetrievalContext } from '../../main/engine/retrieve/retriever.js';
import { indexNotes, type IndexedNotes } from '../support/indexed-notes.js';
import { entityGraph } from '../../main/engine/retrieve/ppr.js';

// A link leads to one note, as the app that wrote it decides, never to every note sharing its last name:
// SilverBullet names pages by their path (case-sensitive), Obsidian and Foam by file name or by the
// shortest path that tells two files apart, Markdown links by a path relative to the linking note. The
// notes are titled otherwise than their files, so no edge here comes from a title named in prose.
const NOTES: Record<string, string> = {
  'Labels.md': '# Labels overview\n\nGroups pages under a shared label.\n',
  'Object/labels.md': '# Label object\n\nWhat the object index stores for each label.\n',
  'API/labels.md': '# Label functions\n\nFunctions that read labels from scripts.\n',
  'Object/page.md': '# Page object\n\nEvery page carries its labels, see [[Labels]]; scripts read them with [[API/labels]].\n',
  'index.md': '# Start\n\nThe way in.\n',
  'user/index.md': '# User guide\n\nThe guide begins.\n',
  'user/setup.md': '# Setup\n\nBack to [[index]], or up to [the start](../index.md).\n',
  'Welcome.md': '# Welcome\n\nBegin at [[index]].\n',
  'work/projects/plan.md': '# Work plan\n\nShip the release.\n',
  'home/projects/plan.md': '# Home plan\n\nPaint the shed.\n',
  'work/todo.md': '# Todo\n\nSee [[projects/plan]].\n',
  'Weekly.md': '# Weekly\n\nReview [[home/projects/plan]] and [[work/projects/plan#Ship]].\n',
  'Self.md': '# Self\n\nA link to its own path: [[Self]].\n',
};

describe('which note a link leads to', () => {
  let notes: IndexedNotes | undefined;
  let db: Db;
  let ctx: RetrievalContext;
  const idOf = (relPath: string) => db.prepare('SELECT id FROM documents WHERE rel_path = ?').pluck().get(relPath) as number;
  const pathOf = (id: number) => db.prepare('SELECT rel_path FROM documents WHERE id = ?').pluck().get(id) as string;

  /** The notes the walk's graph links a note's chunks to (its own note left out), by path. */
  const linkedFrom = async (relPath: string): Promise<string[]> => {
    const g = entityGraph(ctx);
    const own = g.noteOfDoc.get(idOf(relPath));
    const noteNodes = new Map([...g.noteOfDoc].map(([doc, node]) => [node, doc]));
    const chunks = db.prepare('SELECT id FROM chunks WHERE document_id = ?').pluck().all(idOf(relPath)) as number[];
    const out = new Set<string>();
    for (const chunkId of chunks) {
      const c = g.nodeOfChunk.get(chunkId)!;
      for (let j = g.csr.ptr[c]!; j < g.csr.ptr[c + 1]!; j++) {
        const doc = noteNodes.get(g.csr.col[j]!);
        if (doc !== undefined && g.csr.col[j] !== own) out.add(pathOf(doc));
      }
    }
    return [...out].sort();
  };
  /** The notes loci's bridges take a note to name. */
  const bridgedFrom = async (relPath: string) =>
    (entityGraph(ctx).titleMentions.byDoc.get(idOf(relPath)) ?? []).map((m) => pathOf(m.docId)).sort();

  beforeAll(async () => {
    notes = await indexNotes('loci-link-resolution-', NOTES);
    ({ db, ctx } = notes);
  }, 60_000);
  afterAll(() => notes?.close());

  it('takes a bare name to the note named exactly so, and a path to the note at that path', async () => {
    // Three files are named "labels"; `[[Labels]]` is the one whose name has that case, even from Object/.
    expect(await linkedFrom('Object/page.md')).toEqual(['API/labels.md', 'Labels.md']);
    expect(await bridgedFrom('Object/page.md')).toEqual(['API/labels.md', 'Labels.md']);
  });

  it('takes a name two folders share to the one beside the linking note, else the shortest path', async () => {
    expect(await linkedFrom('user/setup.md')).toEqual(['index.md', 'user/index.md']);
    expect(await linkedFrom('Welcome.md')).toEqual(['index.md']);
  });

  it('reads a partial path from the linking note’s folder, and a full one from the top', async () => {
    expect(await linkedFrom('work/todo.md')).toEqual(['work/projects/plan.md']);
    expect(await linkedFrom('Weekly.md')).toEqual(['home/projects/plan.md', 'work/projects/plan.md']);
  });

  it('makes no edge for a link to the note itself', async () => {
    expect(await linkedFrom('Self.md')).toEqual([]);
  });
});
