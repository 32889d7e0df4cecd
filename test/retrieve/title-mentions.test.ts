import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../main/engine/store/db.js';
import type { RetrievalContext } from '../../main/engine/retrieve/retriever.js';
import { indexNotes, type IndexedNotes } from '../support/indexed-notes.js';
import { entityGraph } from '../../main/engine/retrieve/ppr.js';
import { retrieve } from '../../main/engine/retrieve/index.js';
import { referencingShare, titleSpecificity } from '../../main/engine/graph/walk/title-mentions.js';
import type { LociExplanation } from '../../main/engine/retrieve/loci/retriever.js';

/** A note's id by its title (−1: no such note). */
const idOf = (db: Db, title: string) => (db.prepare('SELECT id FROM documents WHERE title = ?').pluck().get(title) as number | undefined) ?? -1;

// Title mentions are found once, when the entity–chunk–note graph is built: a note whose text names
// another note's title gets an edge from that chunk to the named note, and loci's bridges read them.
const NOTES: Record<string, string> = {
  'Kestrel Coffee Works.md': '# Kestrel Coffee Works\n\nA small roastery on the harbour. It was founded in 2009 by Mara Lindqvist.\n',
  'Mara Lindqvist.md': '# Mara Lindqvist\n\nMara Lindqvist was born in Tromsø and trained as a chemist.\n',
  'Harbour Walk.md': "# Harbour Walk\n\nThe walk passes Kestrel Coffee Works' door and ends at the ferry.\n",
  'Tools.md': '# Tools\n\nScripts we keep.\n\n```\nmara lindqvist\n```\n',
  'Plain.md': '# Plain\n\nNothing here names another note.\n',
};

describe('title-mention edges of the entity–chunk–note graph', () => {
  let notes: IndexedNotes | undefined;
  let db: Db;
  let ctx: RetrievalContext;
  const docId = (title: string) => idOf(db, title);

  beforeAll(async () => {
    notes = await indexNotes('loci-title-mentions-', NOTES);
    ({ db, ctx } = notes);
  }, 60_000);
  afterAll(() => notes?.close());

  it('finds the titles each note’s prose names, never its own, and not inside code', async () => {
    const g = entityGraph(ctx);
    const mentioned = (title: string) => (g.titleMentions.byDoc.get(docId(title)) ?? []).map((m) => m.docId);
    expect(mentioned('Kestrel Coffee Works')).toEqual([docId('Mara Lindqvist')]);
    // A possessive ("Kestrel Coffee Works' door") still names the note.
    expect(mentioned('Harbour Walk')).toEqual([docId('Kestrel Coffee Works')]);
    expect(mentioned('Mara Lindqvist')).toEqual([]);
    expect(mentioned('Tools')).toEqual([]);
    expect(mentioned('Plain')).toEqual([]);
  });

  it('links the mentioning chunk to the named note in the walk’s graph', async () => {
    const g = entityGraph(ctx);
    const [m] = g.titleMentions.byDoc.get(docId('Kestrel Coffee Works'))!;
    const chunkNode = g.nodeOfChunk.get(m!.chunkId)!;
    const noteNode = g.noteOfDoc.get(docId('Mara Lindqvist'))!;
    const { ptr, col, weight } = g.csr;
    const neighbours = new Map<number, number>();
    for (let j = ptr[chunkNode]!; j < ptr[chunkNode + 1]!; j++) neighbours.set(col[j]!, (neighbours.get(col[j]!) ?? 0) + weight[j]!);
    expect(neighbours.get(noteNode)).toBeGreaterThan(0);
    expect(g.mentionEdges).toBe([...g.titleMentions.byDoc.values()].flat().length);
  });

  it('counts the notes whose text holds a title: a title named by more notes is less specific', async () => {
    const g = entityGraph(ctx);
    const m = g.titleMentions;
    // Kestrel Coffee Works: its own note and Harbour Walk; Mara Lindqvist: her note, Kestrel's and the code in Tools.
    expect(m.noteFrequency.get('kestrel coffee works')).toBe(2);
    expect(m.noteFrequency.get('mara lindqvist')).toBe(3);
    expect(m.noteFrequency.get('plain')).toBe(1);
    expect(titleSpecificity(m, 'Plain')).toBe(1);
    expect(titleSpecificity(m, 'Mara Lindqvist')).toBeLessThan(titleSpecificity(m, 'Kestrel Coffee Works'));
  });

  it('carries loci’s bridge: the founder’s note is reached from the roastery’s', async () => {
    const r = await retrieve(ctx, 'Where was the founder of Kestrel Coffee Works born?', 'loci', 3);
    const x = r.explanation as LociExplanation;
    const mara = x.documents.find((d) => d.title === 'Mara Lindqvist');
    expect(mara).toBeDefined();
    expect(mara!.bridgedFrom.map((b) => b.title)).toContain('Kestrel Coffee Works');
  });

  it('gives loci’s walk its weight where notes name each other (2 of 5 here)', async () => {
    const g = entityGraph(ctx);
    expect(referencingShare(g.titleMentions)).toBeCloseTo(2 / 5);
    const x = (await retrieve(ctx, 'Where was the founder of Kestrel Coffee Works born?', 'loci', 3)).explanation as LociExplanation;
    expect(x.referencingShare).toBeCloseTo(2 / 5);
    expect(x.weights.ppr).toBeGreaterThan(0);
  });
});

// News titled by an id: no note names another, so the walk's only paths are shared words BM25 has
// already weighed. loci leaves it out and ranks as BM25 does (it reshuffled BM25's top on the CRUD news).
const UNTITLED: Record<string, string> = {
  '20230711-0001.md': 'The harbour authority in Bergen raised the storm warning to level two on Tuesday.\n',
  '20230711-0002.md': 'Ferries between Bergen and Stavanger were cancelled as the storm reached the coast.\n',
  '20230712-0003.md': 'The storm left two thousand homes in Stavanger without power, the grid operator said.\n',
  '20230712-0004.md': 'Bergen’s football club postponed its home match because of the storm warning.\n',
  '20230713-0005.md': 'The grid operator restored power to most homes by Thursday morning.\n',
};

describe('loci on notes that do not name each other', () => {
  let notes: IndexedNotes | undefined;
  let ctx: RetrievalContext;

  beforeAll(async () => {
    notes = await indexNotes('loci-untitled-', UNTITLED);
    ({ ctx } = notes);
  }, 60_000);
  afterAll(() => notes?.close());

  it('gives the walk no weight and ranks the notes as BM25 does', async () => {
    const g = entityGraph(ctx);
    expect(referencingShare(g.titleMentions)).toBe(0);
    for (const q of ['Which homes lost power after the storm?', 'Why was the Bergen match postponed?', 'storm warning Bergen']) {
      const loci = await retrieve(ctx, q, 'loci', 5);
      const x = loci.explanation as LociExplanation;
      expect(x.weights.ppr).toBe(0);
      expect(x.documents.every((d) => d.ranks.ppr === undefined)).toBe(true);
      const bm25 = await retrieve(ctx, q, 'bm25', 10);
      const bm25Notes = [...new Set(bm25.contexts.map((c) => c.docPath))].slice(0, loci.contexts.length);
      expect(bm25Notes.length).toBeGreaterThan(1);
      expect(loci.contexts.map((c) => c.docPath)).toEqual(bm25Notes);
    }
  });
});

// Links name a note as the notes' app does: Obsidian and Foam by file name (`[[backlinking]]` for a note
// whose H1 is "Backlinks"), by a front-matter alias, SilverBullet with a position (`[[Changelog@12]]`).
const LINKED: Record<string, string> = {
  'backlinking.md': '# Backlinks\n\nThe panel lists the notes that link to the open one.\n',
  'graph-view.md': '# Graph View\n\nEach node opens its note; see [[backlinking]] and [the panel](backlinking.md) for what links here.\n',
  'Mara Lindqvist.md': '---\naliases: [Lindqvist, Mara L]\n---\n# Mara Lindqvist\n\nShe was born in Tromsø and trained as a chemist.\n',
  'Roastery.md': '# Roastery\n\nFounded in 2009 by [[Mara L]].\n',
  'Cupping.md': '# Cupping\n\nLindqvist scores every lot herself.\n',
  'Changelog.md': '# Changelog\n\n- The editor keeps its place.\n',
  'Release.md': '# Release\n\nSee [[Changelog@12]] for what changed.\n',
  'howto.md': '# Brewing Steps\n\nGrind, bloom, pour.\n',
  'Guides.md': '# Howto\n\nEvery guide we wrote.\n',
  'Kitchen.md': '# Kitchen\n\nStart from [[howto]].\n',
};

describe('links and mentions by file name, alias and position', () => {
  let notes: IndexedNotes | undefined;
  let db: Db;
  let ctx: RetrievalContext;
  const docId = (title: string) => idOf(db, title);

  beforeAll(async () => {
    notes = await indexNotes('loci-link-names-', LINKED);
    ({ db, ctx } = notes);
  }, 60_000);
  afterAll(() => notes?.close());

  /** The notes a note's text or links name, as the graph found them. */
  const mentioned = async (title: string) => (entityGraph(ctx).titleMentions.byDoc.get(docId(title)) ?? []).map((m) => m.docId);

  it('resolves a link by the file name where the title differs, and a link with a position in the page', async () => {
    const g = entityGraph(ctx);
    expect(await mentioned('Graph View')).toEqual([docId('Backlinks')]);
    expect(await mentioned('Release')).toEqual([docId('Changelog')]);
    // The walk's graph has the link's edge: chunk of Graph View → the note Backlinks.
    const chunk = g.nodeOfChunk.get(db.prepare('SELECT id FROM chunks WHERE document_id = ?').pluck().get(docId('Graph View')) as number)!;
    const { ptr, col } = g.csr;
    expect([...col.slice(ptr[chunk]!, ptr[chunk + 1]!)]).toContain(g.noteOfDoc.get(docId('Backlinks')));
  });

  it('lets a title win over another note’s file name', async () => {
    expect(await mentioned('Kitchen')).toEqual([docId('Howto')]);
  });

  it('finds a note by its front-matter aliases, in links, in prose and in the question', async () => {
    expect(await mentioned('Roastery')).toEqual([docId('Mara Lindqvist')]);
    expect(await mentioned('Cupping')).toEqual([docId('Mara Lindqvist')]);
    const x = (await retrieve(ctx, 'Where was Lindqvist born?', 'loci', 3)).explanation as LociExplanation;
    expect(x.documents.find((d) => d.title === 'Mara Lindqvist')?.titleInQuestion).toBe(true);
  });
});
