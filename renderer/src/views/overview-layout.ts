// Where the overview's clusters and an opened cluster's notes go, in screen pixels of the view's box, and
// where their labels go so that no two labels (or a label and a node) overlap. A few dozen clusters or a
// few hundred notes: the force layout runs to the end at once, before the first paint.
import * as d3 from 'd3';

export interface Placed {
  id: string;
  x: number;
  y: number;
  r: number;
}

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

type SimNode = d3.SimulationNodeDatum & { id: string; r: number };
type SimLink = d3.SimulationLinkDatum<SimNode> & { weight: number };

const PAD = 24;

/** Circle radius for a cluster of `notes`, by area, within [min, max]. */
export function clusterRadius(notes: number, most: number, min = 9, max = 44): number {
  return min + (max - min) * Math.sqrt(notes / Math.max(1, most));
}

/** The overview: clusters pulled together by their counted edges, kept apart by their size plus room for a label. */
export function layoutClusters(
  clusters: { id: string; notes: number; labelWidth: number }[],
  links: { source: string; target: string; weight: number }[],
  width: number,
  height: number,
): Placed[] {
  const most = Math.max(1, ...clusters.map((c) => c.notes));
  // Start on a spiral, biggest in the middle, so the result is the same on every open.
  const nodes: (SimNode & { room: number })[] = clusters.map((c, i) => {
    const a = i * Math.PI * (3 - Math.sqrt(5));
    const d = 30 * Math.sqrt(i + 0.5);
    const r = clusterRadius(c.notes, most);
    return { id: c.id, r, room: Math.max(r + 6, c.labelWidth / 2 + 4), x: width / 2 + d * Math.cos(a), y: height / 2 + d * Math.sin(a) };
  });
  const maxW = Math.max(1, ...links.map((l) => l.weight));
  // In a box too small for every label's room, spacing shrinks evenly (some labels then wait for hover or
  // focus) rather than the forces piling clusters against the walls.
  const fit = Math.min(1, Math.sqrt((width * height) / d3.sum(nodes, (n) => Math.PI * (n.room + 10) ** 2)));
  const sim = d3
    .forceSimulation(nodes)
    .force('link', d3.forceLink<SimNode, SimLink>(links.map((l) => ({ ...l }))).id((n) => n.id).distance(120).strength((l) => 0.02 + 0.2 * (l.weight / maxW)))
    .force('charge', d3.forceManyBody<SimNode>().strength(-260 * fit * fit))
    .force('x', d3.forceX(width / 2).strength(0.06 * (height / Math.max(width, 1))))
    .force('y', d3.forceY(height / 2).strength(0.06))
    // Room for the label below each circle: labels sit under their circle, about as wide as `room`.
    .force('collide', d3.forceCollide<SimNode & { room: number }>().radius((n) => Math.max(n.r + 4, (n.room + 10) * fit)).iterations(3))
    .stop();
  for (let i = 0; i < 300; i++) {
    sim.tick();
    for (const n of nodes) clamp(n, width, height, n.r + PAD);
  }
  // Centre the drawing in the box: the forces settle it off-centre when the box is wide.
  const [x0, x1] = d3.extent(nodes, (n) => n.x!) as [number, number];
  const [y0, y1] = d3.extent(nodes, (n) => n.y!) as [number, number];
  for (const n of nodes) {
    n.x! += width / 2 - (x0 + x1) / 2;
    n.y! += height / 2 - (y0 + y1) / 2;
  }
  return nodes.map((n) => ({ id: n.id, x: n.x!, y: n.y!, r: n.r }));
}

/**
 * An opened cluster: the other clusters on an ellipse at the edge (in the direction they had from it in
 * the overview), its notes inside, pulled towards their neighbours and towards the clusters they link to.
 */
export function layoutOpened(
  centre: { x: number; y: number },
  others: { id: string; notes: number; x: number; y: number }[],
  notes: { id: string; degree: number }[],
  links: { source: string; target: string; weight: number }[],
  width: number,
  height: number,
): { clusters: Placed[]; notes: Placed[]; halo: { x: number; y: number; rx: number; ry: number } } {
  const most = Math.max(1, ...others.map((c) => c.notes));
  // Room at the sides for a ring cluster's label below it, rather than inside the ring.
  const rx = width / 2 - PAD - 64;
  const ry = height / 2 - PAD - 26;
  const cx = width / 2;
  const cy = height / 2;
  // Spread the ring evenly in the overview's angular order, so neighbours stay neighbours.
  const ordered = others.map((c) => ({ c, a: Math.atan2(c.y - centre.y, c.x - centre.x) })).sort((p, q) => p.a - q.a);
  const ring: Placed[] = ordered.map(({ c }, i) => {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / Math.max(1, ordered.length);
    return { id: c.id, x: cx + rx * Math.cos(a), y: cy + ry * Math.sin(a), r: clusterRadius(c.notes, most, 6, 18) };
  });
  const inner = { rx: rx * 0.72, ry: ry * 0.72 };
  const nodes: SimNode[] = notes.map((n, i) => {
    const a = i * Math.PI * (3 - Math.sqrt(5));
    const d = Math.sqrt((i + 0.5) / Math.max(1, notes.length));
    return { id: n.id, r: 4 + Math.min(4, Math.sqrt(n.degree)), x: cx + inner.rx * d * Math.cos(a), y: cy + inner.ry * d * Math.sin(a) };
  });
  const pinned: SimNode[] = ring.map((p) => ({ id: p.id, r: p.r, x: p.x, y: p.y, fx: p.x, fy: p.y }));
  const all = [...nodes, ...pinned];
  const known = new Set(all.map((n) => n.id));
  const ringIds = new Set(ring.map((p) => p.id));
  const simLinks = links.filter((l) => known.has(l.source) && known.has(l.target)).map((l) => ({ ...l }));
  // A note leans towards the clusters it links to, but its own cluster's links shape the layout: a strong
  // pull to the ring would pile every note against the biggest neighbour.
  const toRing = (l: SimLink) => ringIds.has(typeof l.target === 'object' ? l.target.id : String(l.target));
  const strength = (l: SimLink) => (toRing(l) ? 0.004 * Math.min(4, l.weight) : 0.06);
  const sim = d3
    .forceSimulation(all)
    .force('link', d3.forceLink<SimNode, SimLink>(simLinks).id((n) => n.id).distance(40).strength(strength))
    .force('charge', d3.forceManyBody<SimNode>().strength(-30).distanceMax(200))
    .force('x', d3.forceX(cx).strength(0.04))
    .force('y', d3.forceY(cy).strength(0.04 * (width / Math.max(height, 1))))
    .force('collide', d3.forceCollide<SimNode>().radius((n) => n.r + 3))
    .alphaDecay(notes.length > 300 ? 0.06 : 0.03)
    .stop();
  const ticks = Math.ceil(Math.log(sim.alphaMin()) / Math.log(1 - sim.alphaDecay()));
  for (let i = 0; i < ticks; i++) {
    sim.tick();
    for (const n of nodes) inEllipse(n, cx, cy, inner.rx, inner.ry);
  }
  return {
    clusters: ring,
    notes: nodes.map((n) => ({ id: n.id, x: n.x!, y: n.y!, r: n.r })),
    halo: { x: cx, y: cy, rx: inner.rx + 14, ry: inner.ry + 14 },
  };
}

export interface LabelRequest {
  id: string;
  /** The node the label belongs to. */
  x: number;
  y: number;
  r: number;
  w: number;
  h: number;
  /** Higher is placed first. */
  priority: number;
  /** A direction to try first (a ring cluster's label goes outwards, away from the opened notes). */
  towards?: { dx: number; dy: number };
}

/**
 * Greedy label placement: most important first, each at the first of a few spots around its node (below,
 * above, right, left) that stays inside the view and touches no label placed before it and no node.
 * A label with no free spot is left out (the node's name shows on hover and focus).
 */
export function placeLabels(requests: LabelRequest[], nodes: Placed[], width: number, height: number): Map<string, Box> {
  const placed = new Map<string, Box>();
  const boxes: Box[] = [];
  const order = [...requests].sort((a, b) => b.priority - a.priority);
  // Nodes as obstacles, on a coarse grid so each test looks at a few of them.
  const cell = 64;
  const grid = new Map<string, Placed[]>();
  for (const n of nodes) {
    for (let gx = Math.floor((n.x - n.r) / cell); gx <= Math.floor((n.x + n.r) / cell); gx++) {
      for (let gy = Math.floor((n.y - n.r) / cell); gy <= Math.floor((n.y + n.r) / cell); gy++) {
        const key = `${gx},${gy}`;
        (grid.get(key) ?? grid.set(key, []).get(key)!).push(n);
      }
    }
  }
  const hitsNode = (b: Box, own: LabelRequest) => {
    for (let gx = Math.floor(b.x / cell); gx <= Math.floor((b.x + b.w) / cell); gx++) {
      for (let gy = Math.floor(b.y / cell); gy <= Math.floor((b.y + b.h) / cell); gy++) {
        for (const n of grid.get(`${gx},${gy}`) ?? []) {
          if (n.x === own.x && n.y === own.y) continue;
          const nx = Math.max(b.x, Math.min(n.x, b.x + b.w));
          const ny = Math.max(b.y, Math.min(n.y, b.y + b.h));
          if ((nx - n.x) ** 2 + (ny - n.y) ** 2 < n.r * n.r) return true;
        }
      }
    }
    return false;
  };
  for (const q of order) {
    const gap = 3;
    const d = q.r * 0.7 + gap;
    const spots: Box[] = [
      { x: q.x - q.w / 2, y: q.y + q.r + gap, w: q.w, h: q.h },
      { x: q.x - q.w / 2, y: q.y - q.r - gap - q.h, w: q.w, h: q.h },
      { x: q.x + q.r + gap, y: q.y - q.h / 2, w: q.w, h: q.h },
      { x: q.x - q.r - gap - q.w, y: q.y - q.h / 2, w: q.w, h: q.h },
      { x: q.x + d, y: q.y + d, w: q.w, h: q.h },
      { x: q.x - d - q.w, y: q.y + d, w: q.w, h: q.h },
      { x: q.x + d, y: q.y - d - q.h, w: q.w, h: q.h },
      { x: q.x - d - q.w, y: q.y - d - q.h, w: q.w, h: q.h },
    ];
    if (q.towards) {
      // Spots ordered by how well their centre points the preferred way from the node.
      const { dx, dy } = q.towards;
      const score = (b: Box) => (b.x + b.w / 2 - q.x) * dx + (b.y + b.h / 2 - q.y) * dy;
      spots.sort((a, b) => score(b) - score(a));
    }
    const spot = spots.find((b) => b.x >= 2 && b.y >= 2 && b.x + b.w <= width - 2 && b.y + b.h <= height - 2 && !boxes.some((o) => intersects(o, b)) && !hitsNode(b, q));
    if (!spot) continue;
    placed.set(q.id, spot);
    boxes.push(spot);
  }
  return placed;
}

export function intersects(a: Box, b: Box): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/** The shortest tail of each folder path (by whole segments) that no other cluster's label ends with. */
export function shortLabels(labels: string[]): string[] {
  const parts = labels.map((l) => l.split('/'));
  return parts.map((p) => {
    for (let n = 1; n < p.length; n++) {
      const tail = p.slice(-n).join('/');
      if (parts.every((o) => o === p || o.slice(-n).join('/') !== tail)) return tail;
    }
    return p.join('/');
  });
}

function clamp(n: SimNode, width: number, height: number, margin: number): void {
  n.x = Math.max(margin, Math.min(width - margin, n.x!));
  n.y = Math.max(margin, Math.min(height - margin, n.y!));
}

function inEllipse(n: SimNode, cx: number, cy: number, rx: number, ry: number): void {
  const dx = (n.x! - cx) / rx;
  const dy = (n.y! - cy) / ry;
  const d = Math.sqrt(dx * dx + dy * dy);
  if (d <= 1) return;
  n.x = cx + (dx / d) * rx;
  n.y = cy + (dy / d) * ry;
}
