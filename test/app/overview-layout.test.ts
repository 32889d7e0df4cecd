// The graph overview's layout (renderer/src/views/overview-layout.ts): clusters inside the view, labels
// that never overlap each other or a node, and folder labels shortened only as far as they stay distinct.
import { describe, expect, it } from 'vitest';
import { intersects, layoutClusters, layoutOpened, placeLabels, shortLabels, type LabelRequest, type Placed } from '../../renderer/src/views/overview-layout.js';

/** Deterministic pseudo-random numbers, so a failure reproduces. */
function seeded(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
}

describe('overview layout', () => {
  it('keeps every cluster inside the view, apart from the others', () => {
    const rand = seeded(3);
    const clusters = Array.from({ length: 40 }, (_, i) => ({ id: `c${i}`, notes: 5 + Math.floor(rand() * 160), labelWidth: 60 + Math.floor(rand() * 100) }));
    const links = Array.from({ length: 120 }, () => ({ source: `c${Math.floor(rand() * 40)}`, target: `c${Math.floor(rand() * 40)}`, weight: 1 + Math.floor(rand() * 30) })).filter((l) => l.source !== l.target);
    const placed = layoutClusters(clusters, links, 1050, 600);
    expect(placed).toHaveLength(40);
    for (const p of placed) {
      expect(p.x - p.r).toBeGreaterThanOrEqual(0);
      expect(p.y - p.r).toBeGreaterThanOrEqual(0);
      expect(p.x + p.r).toBeLessThanOrEqual(1050);
      expect(p.y + p.r).toBeLessThanOrEqual(600);
    }
    const overlapping = placed.flatMap((a, i) => placed.slice(i + 1).filter((b) => Math.hypot(a.x - b.x, a.y - b.y) < a.r + b.r));
    expect(overlapping).toEqual([]);
  });

  it('places labels that touch no other label and no node, inside the view', () => {
    const rand = seeded(9);
    const nodes: Placed[] = Array.from({ length: 300 }, (_, i) => ({ id: `n${i}`, x: 20 + rand() * 960, y: 20 + rand() * 560, r: 3 + rand() * 6 }));
    const requests: LabelRequest[] = nodes.map((n) => ({ ...n, w: 40 + rand() * 90, h: 14, priority: rand() }));
    const boxes = [...placeLabels(requests, nodes, 1000, 600).values()];
    expect(boxes.length).toBeGreaterThan(30);
    expect(boxes.length).toBeLessThan(300);
    for (const [i, a] of boxes.entries()) {
      expect(boxes.slice(i + 1).filter((b) => intersects(a, b))).toEqual([]);
      expect(a.x >= 0 && a.y >= 0 && a.x + a.w <= 1000 && a.y + a.h <= 600).toBe(true);
      const hit = nodes.filter((n) => n.x + n.r > a.x && n.x - n.r < a.x + a.w && n.y + n.r > a.y && n.y - n.r < a.y + a.h && Math.hypot(Math.max(a.x, Math.min(n.x, a.x + a.w)) - n.x, Math.max(a.y, Math.min(n.y, a.y + a.h)) - n.y) < n.r);
      expect(hit).toEqual([]);
    }
  });

  it('places the most important labels first', () => {
    const nodes: Placed[] = [
      { id: 'a', x: 100, y: 100, r: 5 },
      { id: 'b', x: 104, y: 100, r: 5 },
    ];
    // Two nodes almost on top of each other, in a box with room for one label: the higher priority wins.
    const placed = placeLabels(
      [
        { id: 'a', x: 100, y: 100, r: 5, w: 190, h: 100, priority: 1 },
        { id: 'b', x: 104, y: 100, r: 5, w: 190, h: 100, priority: 2 },
      ],
      nodes,
      220,
      220,
    );
    expect([...placed.keys()]).toEqual(['b']);
  });

  it('rings the other clusters around an opened one and keeps its notes inside the ring', () => {
    const others = Array.from({ length: 12 }, (_, i) => ({ id: `c${i}`, notes: 10 + i, x: Math.cos(i) * 300, y: Math.sin(i) * 300 }));
    const notes = Array.from({ length: 150 }, (_, i) => ({ id: `d${i}`, degree: i % 7 }));
    const links = notes.map((n, i) => ({ source: n.id, target: i % 3 ? `d${(i + 1) % 150}` : `c${i % 12}`, weight: 1 }));
    const laid = layoutOpened({ x: 0, y: 0 }, others, notes, links, 1000, 600);
    expect(laid.clusters).toHaveLength(12);
    for (const n of laid.notes) expect(((n.x - laid.halo.x) / laid.halo.rx) ** 2 + ((n.y - laid.halo.y) / laid.halo.ry) ** 2).toBeLessThanOrEqual(1);
    for (const c of laid.clusters) expect(((c.x - laid.halo.x) / laid.halo.rx) ** 2 + ((c.y - laid.halo.y) / laid.halo.ry) ** 2).toBeGreaterThan(1);
  });

  it('shortens folder labels to their shortest distinct tail', () => {
    expect(shortLabels(['notebook/notes/winter', 'notebook/llm/winter', 'notebook/beans', 'sample-notes', 'notebook/sample-notes'])).toEqual([
      'notes/winter',
      'llm/winter',
      'beans',
      'sample-notes',
      'notebook/sample-notes',
    ]);
  });
});
