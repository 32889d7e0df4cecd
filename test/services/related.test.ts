// Related notes and the local graph on the sample notes folder, each reason checked against the
// database it claims to come from (document-layer edges, entity mentions, super-topic members).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LociEngine } from '../../main/engine/engine.js';
import { calls } from '../../main/contract/contract.js';
import { SAMPLE_NOTES } from '../fixtures/paths.js';
import type { RelatedNote } from '../../main/engine/api.js';

let dir: string;
let engine: LociEngine;
let docs: { id: number; rel_path: string }[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loci-related-'));
  engine = await LociEngine.open({ dbPath: join(dir, 'index.db') });
  // Looser fusion than the default so the small sample folder has super-topics joining notes.
  engine.settings.update({ fusionTopic: 0.5 });
  await engine.library.index(SAMPLE_NOTES);
  docs = engine.db.prepare("SELECT id, rel_path FROM documents WHERE status = 'indexed' ORDER BY id").all() as typeof docs;
}, 120_000);
afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

const q = <T>(sql: string, ...args: unknown[]) => engine.db.prepare(sql).all(...args) as T[];

function edgeWeight(a: number, b: number): number | undefined {
  const rows = q<{ weight: number }>('SELECT weight FROM doc_edges WHERE (src = ? AND dst = ?) OR (src = ? AND dst = ?)', a, b, b, a);
  return rows.length ? Math.max(...rows.map((r) => r.weight)) : undefined;
}

function checkReasons(docId: number, r: RelatedNote): void {
  expect(r.docId).not.toBe(docId);
  expect(r.reasons.length).toBeGreaterThan(0);
  for (const why of r.reasons) {
    if (why.kind === 'similar') {
      expect(why.weight).toBeCloseTo(edgeWeight(docId, r.docId)!, 6);
      if (why.mine) {
        // The passage pair: one chunk of each note, at the lines given.
        expect(q('SELECT 1 FROM chunks WHERE document_id = ? AND line_from = ? AND line_to = ?', docId, why.mine.lineFrom, why.mine.lineTo)).toHaveLength(1);
        expect(q('SELECT 1 FROM chunks WHERE document_id = ? AND line_from = ? AND line_to = ?', r.docId, why.lineFrom, why.lineTo)).toHaveLength(1);
        expect(why.mine.sim).toBeGreaterThan(0);
      }
    } else if (why.kind === 'entity') {
      const inBoth = q<{ n: number }>(
        `SELECT count(DISTINCT m.document_id) AS n FROM entity_mentions m JOIN entities e ON e.id = m.entity_id
         WHERE e.name = ? AND m.document_id IN (?, ?)`,
        why.text,
        docId,
        r.docId,
      );
      expect(inBoth[0]?.n).toBe(2);
      expect(
        q('SELECT 1 FROM entity_mentions m JOIN entities e ON e.id = m.entity_id WHERE e.name = ? AND m.document_id = ? AND m.line_from = ?', why.text, r.docId, why.lineFrom),
      ).not.toHaveLength(0);
      expect(why.weight).toBeGreaterThan(0);
    } else {
      const members = q<{ docId: number }>(
        `SELECT DISTINCT n.document_id AS docId FROM super_nodes s JOIN super_members m ON m.super_id = s.id JOIN mm_nodes n ON n.id = m.node_id
         WHERE s.kind = 'topic' AND s.text = ?`,
        why.text,
      ).map((m) => m.docId);
      expect(members).toEqual(expect.arrayContaining([docId, r.docId]));
    }
  }
  // Shared entities are listed rarest first.
  const idfs = r.reasons.filter((w) => w.kind === 'entity').map((w) => w.weight);
  expect(idfs).toEqual([...idfs].sort((a, b) => b - a));
}

describe('notes.related', () => {
  it('finds related notes for every note, each reason backed by the database, best first', () => {
    let withSimilar = 0;
    let withEntity = 0;
    let withTopic = 0;
    for (const d of docs) {
      const related = engine.views.related(d.id, { limit: 20 });
      expect(calls['notes.related'].response.parse(related)).toEqual(related);
      const scores = related.map((r) => r.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      for (const r of related) checkReasons(d.id, r);
      // Every document-layer neighbour is among the related notes.
      const neighbours = q<{ other: number }>('SELECT dst AS other FROM doc_edges WHERE src = ? UNION SELECT src FROM doc_edges WHERE dst = ?', d.id, d.id);
      expect(related.map((r) => r.docId)).toEqual(expect.arrayContaining(neighbours.map((n) => n.other).slice(0, 20)));
      withSimilar += related.filter((r) => r.reasons.some((w) => w.kind === 'similar' && w.mine)).length;
      withEntity += related.filter((r) => r.reasons.some((w) => w.kind === 'entity')).length;
      withTopic += related.filter((r) => r.reasons.some((w) => w.kind === 'super-topic')).length;
    }
    // The sample folder exercises all three reasons.
    expect(withSimilar).toBeGreaterThan(0);
    expect(withEntity).toBeGreaterThan(0);
    expect(withTopic).toBeGreaterThan(0);
  });

  it('weights a rare shared entity above a common one (IDF)', () => {
    const rows = q<{ name: string; df: number }>(
      'SELECT e.name, count(DISTINCT m.document_id) AS df FROM entities e JOIN entity_mentions m ON m.entity_id = e.id GROUP BY e.id HAVING df >= 2 ORDER BY df',
    );
    const rare = rows[0]!;
    const common = rows[rows.length - 1]!;
    expect(common.df).toBeGreaterThan(rare.df);
    const weightOf = (name: string) =>
      docs
        .flatMap((d) => engine.views.related(d.id, { limit: 50 }))
        .flatMap((r) => r.reasons)
        .find((w) => w.kind === 'entity' && w.text === name)?.weight;
    expect(weightOf(rare.name)).toBeGreaterThan(weightOf(common.name)!);
  });

  it('respects the limit and refuses an unknown note', () => {
    expect(engine.views.related(docs[0]!.id, { limit: 2 }).length).toBeLessThanOrEqual(2);
    expect(() => engine.views.related(999_999)).toThrow(/No indexed note with id 999999/);
    expect(calls['notes.related'].request.safeParse({ docId: 1, limit: 0 }).success).toBe(false);
  });
});

describe('graph.local and clusters', () => {
  it('one hop: the note and its document-layer neighbours, with distances, links between listed nodes only', () => {
    const centre = docs.find((d) => d.rel_path === 'index.md') ?? docs[0]!;
    const view = engine.views.localGraph(centre.id, { hops: 1 });
    expect(calls['graph.local'].response.parse(view)).toEqual(view);
    const docNodes = view.nodes.filter((n) => n.kind === 'doc');
    const neighbours = new Set(q<{ other: number }>('SELECT dst AS other FROM doc_edges WHERE src = ? UNION SELECT src FROM doc_edges WHERE dst = ?', centre.id, centre.id).map((r) => r.other));
    expect(docNodes.find((n) => n.docId === centre.id)?.hops).toBe(0);
    for (const n of docNodes) if (n.docId !== centre.id) expect(neighbours.has(n.docId!) && n.hops === 1).toBe(true);
    expect(docNodes.length).toBe(neighbours.size + 1);
    const ids = new Set(view.nodes.map((n) => n.id));
    for (const l of view.links) expect(ids.has(l.source) && ids.has(l.target)).toBe(true);

    const two = engine.views.localGraph(centre.id, { hops: 2 });
    const twoDocs = two.nodes.filter((n) => n.kind === 'doc');
    expect(twoDocs.length).toBeGreaterThanOrEqual(docNodes.length);
    for (const n of twoDocs.filter((x) => x.hops === 2)) {
      const viaOneHop = twoDocs.filter((x) => x.hops === 1).some((x) => edgeWeight(x.docId!, n.docId!) !== undefined);
      expect(viaOneHop).toBe(true);
    }
    expect(() => engine.views.localGraph(999_999)).toThrow(/No indexed note/);
  });

  it('the global view gives each note its folder and, where it has one, its largest super-topic', () => {
    const view = engine.views.graph({ limit: 2000 });
    const docNodes = view.nodes.filter((n) => n.kind === 'doc');
    expect(docNodes.length).toBe(docs.length);
    expect(new Set(docNodes.map((n) => n.folder)).size).toBeGreaterThan(2);
    for (const n of docNodes) expect(n.folder).toBe(n.docPath!.includes('/') ? n.docPath!.slice(0, n.docPath!.lastIndexOf('/')) : '');
    const withTopic = docNodes.filter((n) => n.topic);
    expect(withTopic.length).toBeGreaterThan(0);
    for (const n of withTopic) {
      const superId = Number(n.topic!.slice(1));
      const member = q('SELECT 1 FROM super_members m JOIN mm_nodes x ON x.id = m.node_id WHERE m.super_id = ? AND x.document_id = ?', superId, n.docId);
      expect(member.length).toBeGreaterThan(0);
      expect(q<{ text: string }>('SELECT text FROM super_nodes WHERE id = ?', superId)[0]?.text).toBe(n.topicLabel);
    }
  });
});
