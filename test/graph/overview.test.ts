// The whole-library overview (graph.overview) and an opened cluster (graph.cluster) over a generated
// notes library indexed into real SQLite: cluster sizes against the notes in their folders, edge
// weights against the document-layer rows counted directly, and the payload's size bound.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LociEngine } from '../../main/engine/engine.js';
import { calls } from '../../main/contract/contract.js';
import { MAX_CLUSTERS } from '../../main/engine/graph/clusters.js';
import { NotFoundError } from '../../main/engine/errors.js';
import { generateLibrary } from '../../scripts/generate-library.js';
import type { ClusterView, GraphOverview } from '../../main/engine/api.js';

const NOTES = 260;

async function indexed(prefix: string, arrange: (dir: string) => void) {
  const work = mkdtempSync(path.join(tmpdir(), prefix));
  const lib = generateLibrary(path.join(work, 'notes'), NOTES);
  arrange(lib.dir);
  const engine = await LociEngine.open({ dbPath: path.join(work, 'index.db') });
  await engine.library.index(lib.dir);
  return { work, engine, dir: lib.dir };
}

/** Through the contract's own response schemas, as the UI receives them. */
const overview = (engine: LociEngine, by?: 'folder' | 'topic'): GraphOverview => calls['graph.overview'].response.parse(engine.views.graphOverview(by));
const opened = (engine: LociEngine, id: string, by?: 'folder' | 'topic'): ClusterView => calls['graph.cluster'].response.parse(engine.views.graphCluster(id, by));

function docEdges(engine: LociEngine): { src: number; dst: number }[] {
  return engine.db
    .prepare("SELECT e.src, e.dst FROM doc_edges e JOIN documents a ON a.id = e.src AND a.status = 'indexed' JOIN documents b ON b.id = e.dst AND b.status = 'indexed'")
    .all() as { src: number; dst: number }[];
}

/** Every cluster opened: which cluster each note landed in (each note exactly once). */
function membership(engine: LociEngine, o: GraphOverview, by?: 'folder' | 'topic'): Map<number, string> {
  const of = new Map<number, string>();
  for (const c of o.clusters) {
    const v = opened(engine, c.id, by);
    expect(v.nodes).toHaveLength(c.notes);
    for (const n of v.nodes) {
      expect(of.has(n.docId!), `note ${n.docPath} in two clusters`).toBe(false);
      of.set(n.docId!, c.id);
    }
  }
  return of;
}

describe('graph.overview by folder, over a generated library', () => {
  let lib: Awaited<ReturnType<typeof indexed>>;
  beforeAll(async () => {
    lib = await indexed('loci-overview-', () => {});
  }, 180_000);
  afterAll(async () => {
    await lib.engine.close();
    rmSync(lib.work, { recursive: true, force: true });
  });

  it('has a few dozen clusters whose sizes are the notes under their folders, and adds up to the library', () => {
    const o = overview(lib.engine);
    const indexedCount = (lib.engine.db.prepare("SELECT count(*) FROM documents WHERE status = 'indexed'").pluck().get() as number);
    expect(indexedCount).toBeGreaterThan(NOTES * 0.9);
    expect(o.by).toBe('folder');
    expect(o.notes).toBe(indexedCount);
    expect(o.clusters.length).toBeGreaterThan(5);
    expect(o.clusters.length).toBeLessThanOrEqual(MAX_CLUSTERS);
    expect(o.clusters.reduce((s, c) => s + c.notes, 0)).toBe(indexedCount);
    // Largest first.
    expect(o.clusters.map((c) => c.notes)).toEqual([...o.clusters.map((c) => c.notes)].sort((a, b) => b - a));
    // A folder cluster holds exactly the notes under its folder, less those of deeper folder clusters.
    const folders = o.clusters.filter((c) => c.id.startsWith('folder:'));
    expect(folders.length).toBeGreaterThan(5);
    const under = lib.engine.db.prepare("SELECT count(*) FROM documents WHERE status = 'indexed' AND rel_path LIKE ? || '/%'").pluck();
    for (const c of folders) {
      const deeper = o.clusters.filter((d) => d !== c && d.folder.startsWith(`${c.folder}/`)).reduce((s, d) => s + d.notes, 0);
      expect(c.notes, c.label).toBe((under.get(c.folder) as number) - deeper);
    }
    expect(o.clusters.map((c) => c.label)).toContain('notebook/beans');
  });

  it("counts each pair of clusters' document-layer edges, and every edge once", () => {
    const o = overview(lib.engine);
    const of = membership(lib.engine, o);
    const expected = new Map<string, number>();
    const inner = new Map<string, number>();
    const edges = docEdges(lib.engine);
    expect(edges.length).toBeGreaterThan(100);
    for (const e of edges) {
      const [a, b] = [of.get(e.src)!, of.get(e.dst)!];
      if (a === b) inner.set(a, (inner.get(a) ?? 0) + 1);
      else expected.set([a, b].sort().join('\n'), (expected.get([a, b].sort().join('\n')) ?? 0) + 1);
    }
    expect(new Map(o.links.map((l) => [[l.source, l.target].sort().join('\n'), l.weight]))).toEqual(expected);
    for (const c of o.clusters) expect(c.innerLinks, c.label).toBe(inner.get(c.id) ?? 0);
    expect(o.links.reduce((s, l) => s + l.weight, 0) + o.clusters.reduce((s, c) => s + c.innerLinks, 0)).toBe(edges.length);
    // Small at any size: cluster pairs, never note pairs.
    expect(o.links.length).toBeLessThanOrEqual((o.clusters.length * (o.clusters.length - 1)) / 2);
  });

  it('opens a cluster into its notes, the edges among them, and their edges to other clusters counted', () => {
    const o = overview(lib.engine);
    const of = membership(lib.engine, o);
    const c = o.clusters.find((x) => x.label === 'notebook/beans')!;
    const v = opened(lib.engine, c.id);
    expect(v.cluster).toEqual(c);
    expect(v.nodes.every((n) => n.kind === 'doc' && n.docPath!.startsWith('notebook/beans/'))).toBe(true);
    const ids = new Set(v.nodes.map((n) => n.docId));
    const edges = docEdges(lib.engine);
    expect(v.links).toHaveLength(edges.filter((e) => ids.has(e.src) && ids.has(e.dst)).length);
    expect(v.links.length).toBe(c.innerLinks);
    const out = new Map<string, number>();
    for (const e of edges) {
      if (ids.has(e.src) === ids.has(e.dst)) continue;
      const [note, other] = ids.has(e.src) ? [e.src, e.dst] : [e.dst, e.src];
      const key = `d${note}\n${of.get(other)}`;
      out.set(key, (out.get(key) ?? 0) + 1);
    }
    expect(out.size).toBeGreaterThan(0);
    expect(new Map(v.outward.map((l) => [`${l.source}\n${l.target}`, l.weight]))).toEqual(out);
    expect(v.outward.every((l) => o.clusters.some((x) => x.id === l.target && x.id !== c.id))).toBe(true);
  });

  it('refuses an unknown cluster with a clear error, and an empty id at the contract', () => {
    expect(() => lib.engine.views.graphCluster('folder:/nowhere/at-all')).toThrow(NotFoundError);
    expect(() => lib.engine.views.graphCluster('folder:/nowhere/at-all')).toThrow(/No cluster 'folder:\/nowhere\/at-all'.*open the overview again/);
    expect(calls['graph.cluster'].request.safeParse({ id: '' }).success).toBe(false);
    expect(calls['graph.overview'].request.safeParse({ by: 'tags' }).success).toBe(false);
  });

  it('groups by super-topic when asked: each topic cluster is the notes whose strongest topic it is', () => {
    const o = overview(lib.engine, 'topic');
    expect(o.by).toBe('topic');
    expect(o.clusters.length).toBeGreaterThan(2);
    expect(o.clusters.length).toBeLessThanOrEqual(MAX_CLUSTERS);
    expect(o.clusters.reduce((s, c) => s + c.notes, 0)).toBe(o.notes);
    for (const c of o.clusters.filter((x) => x.id !== 'topic:other')) {
      const v = opened(lib.engine, c.id, 'topic');
      expect(new Set(v.nodes.map((n) => n.topic))).toEqual(new Set([c.id.slice('topic:'.length)]));
      expect(v.nodes.every((n) => n.topicLabel === c.label)).toBe(true);
    }
  });
});

describe('graph.overview where folders do not split the library', () => {
  let lib: Awaited<ReturnType<typeof indexed>>;
  beforeAll(async () => {
    // Every generated note in one flat folder: only super-topics can split it.
    lib = await indexed('loci-overview-flat-', (dir) => {
      mkdirSync(path.join(dir, 'inbox'));
      for (const f of readdirSync(path.join(dir, 'notebook'), { recursive: true, encoding: 'utf8' })) {
        if (f.endsWith('.md')) renameSync(path.join(dir, 'notebook', f), path.join(dir, 'inbox', path.basename(f)));
      }
      rmSync(path.join(dir, 'notebook'), { recursive: true });
    });
  }, 180_000);
  afterAll(async () => {
    await lib.engine.close();
    rmSync(lib.work, { recursive: true, force: true });
  });

  it("splits the big flat folder by its notes' strongest super-topics, the rest in one cluster", () => {
    const o = overview(lib.engine);
    const inboxNotes = lib.engine.db.prepare("SELECT count(*) FROM documents WHERE status = 'indexed' AND rel_path LIKE 'inbox/%'").pluck().get() as number;
    expect(inboxNotes).toBeGreaterThan(200);
    const inbox = o.clusters.filter((c) => c.folder === 'inbox');
    expect(inbox.every((c) => c.kind === 'topic')).toBe(true);
    expect(inbox.length).toBeGreaterThan(2);
    expect(inbox.reduce((s, c) => s + c.notes, 0)).toBe(inboxNotes);
    expect(o.clusters.length).toBeLessThanOrEqual(MAX_CLUSTERS);
    for (const c of inbox) {
      const v = opened(lib.engine, c.id);
      expect(v.nodes.every((n) => n.folder === 'inbox')).toBe(true);
      if (c.id.startsWith('topic:other@')) continue;
      expect(c.notes).toBeGreaterThanOrEqual(3);
      expect(new Set(v.nodes.map((n) => n.topic)).size).toBe(1);
      expect(c.label).toContain(v.nodes[0]!.topicLabel!);
    }
  });
});
