// Force layout and canvas drawing for the graph view. Canvas, not SVG: thousands of nodes stay
// interactive. Level of detail: labels appear by importance as you zoom in; links fade when dense.
import * as d3 from 'd3';
import type { Res } from '../../../main/contract/contract.js';

type Graph = Res<'graph.view'>;
export type GNode = Graph['nodes'][number] & d3.SimulationNodeDatum & { degree: number };
export type GLink = d3.SimulationLinkDatum<GNode> & { kind: Graph['links'][number]['kind']; weight: number };

const MAX_LABELS = 60;

export interface GraphScene {
  setHighlight(query: string): GNode | null;
  focus(node: GNode): void;
  /** Zooms so every node is on screen. */
  fit(animate?: boolean): void;
  redraw(): void;
  destroy(): void;
}

export function createScene(
  canvas: HTMLCanvasElement,
  nodes: GNode[],
  links: GLink[],
  handlers: { onHover(n: GNode | null): void; onClick(n: GNode): void; onSettled?(): void },
  options: {
    /** Nodes with the same cluster key are pulled together (folder or super-topic groups). */
    clusterOf?: (n: GNode) => string | null;
    /** The note a local graph is centred on: pinned in the middle, always labelled. */
    centreId?: string;
  } = {},
): GraphScene {
  const ctx = canvas.getContext('2d')!;
  let transform = d3.zoomIdentity;
  let highlight = new Set<string>();
  let hovered: GNode | null = null;
  const dpr = window.devicePixelRatio || 1;

  const resize = () => {
    canvas.width = canvas.clientWidth * dpr;
    canvas.height = canvas.clientHeight * dpr;
  };
  resize();

  const toGraph = (px: number, py: number): [number, number] => {
    const [x, y] = transform.invert([px - canvas.clientWidth / 2, py - canvas.clientHeight / 2]);
    return [x, y];
  };

  // The few best-connected nodes keep their labels at any zoom; the rest appear as you zoom in.
  const labelDegree = [...nodes].map((n) => n.degree).sort((a, b) => b - a)[Math.min(12, nodes.length - 1)] ?? 0;
  const radius = (n: GNode) => (n.kind === 'doc' ? 5 : n.kind === 'super-topic' ? 4 : 3) + Math.min(6, Math.sqrt(n.degree));
  const sim = d3
    .forceSimulation(nodes)
    .force('link', d3.forceLink<GNode, GLink>(links).id((n) => n.id).distance((l) => (l.kind === 'similar' ? 60 : 35)).strength(0.4))
    .force('charge', d3.forceManyBody<GNode>().strength(-40).theta(0.9).distanceMax(320))
    .force('center', d3.forceCenter(0, 0))
    .force('collide', d3.forceCollide<GNode>().radius((n) => radius(n) + 1).iterations(1))
    .alphaDecay(nodes.length > 1500 ? 0.06 : 0.03)
    .on('tick', draw)
    .on('end', () => {
      fit(true);
      handlers.onSettled?.();
    });

  // Clusters sit on a ring (largest first), each pulling its members towards its centre; nodes with no
  // cluster stay free in the middle. Labels are drawn at each cluster's centroid.
  const clusters = new Map<string, GNode[]>();
  if (options.clusterOf) {
    for (const n of nodes) {
      const key = options.clusterOf(n);
      if (!key) continue;
      let list = clusters.get(key);
      if (!list) clusters.set(key, (list = []));
      list.push(n);
    }
    const ordered = [...clusters.entries()].sort((a, b) => b[1].length - a[1].length);
    const ring = Math.max(150, Math.sqrt(nodes.length) * 22);
    const centres = new Map<string, [number, number]>();
    ordered.forEach(([key], i) => {
      const a = (2 * Math.PI * i) / ordered.length;
      const r = ring * (0.45 + 0.55 * ((i % 3) / 2));
      centres.set(key, [Math.cos(a) * r, Math.sin(a) * r]);
    });
    const target = (n: GNode, axis: 0 | 1) => {
      const key = options.clusterOf!(n);
      const c = key ? centres.get(key) : undefined;
      return c ? c[axis] : 0;
    };
    const pull = (n: GNode) => (options.clusterOf!(n) ? 0.12 : 0.01);
    sim.force('clusterX', d3.forceX<GNode>((n) => target(n, 0)).strength(pull));
    sim.force('clusterY', d3.forceY<GNode>((n) => target(n, 1)).strength(pull));
  }
  const centre = options.centreId ? nodes.find((n) => n.id === options.centreId) : undefined;
  if (centre) {
    centre.fx = 0;
    centre.fy = 0;
  }

  function colors() {
    const css = getComputedStyle(document.documentElement);
    const v = (name: string) => css.getPropertyValue(name).trim();
    return { doc: v('--node-doc'), entity: v('--node-entity'), super: v('--node-super'), edge: v('--edge'), text: v('--text'), accent: v('--accent'), bg: v('--bg-elevated') };
  }

  let ticks = 0;
  let painted = false;
  function draw() {
    if (!painted) {
      painted = true;
      // Read by the scale test: when the first frame of this layout reached the screen.
      performance.mark('loci-graph-first-paint');
    }
    // Once the layout has taken shape, frame it; the final fit happens when the simulation ends.
    if (++ticks === 40) queueMicrotask(() => fit(true));
    const c = colors();
    const k = transform.k;
    ctx.save();
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, canvas.clientWidth, canvas.clientHeight);
    ctx.translate(transform.x + canvas.clientWidth / 2, transform.y + canvas.clientHeight / 2);
    ctx.scale(k, k);

    ctx.strokeStyle = c.edge;
    ctx.globalAlpha = links.length > 3000 ? 0.15 : 0.35;
    ctx.lineWidth = 1 / k;
    ctx.beginPath();
    for (const l of links) {
      const s = l.source as GNode;
      const t = l.target as GNode;
      ctx.moveTo(s.x!, s.y!);
      ctx.lineTo(t.x!, t.y!);
    }
    ctx.stroke();
    ctx.globalAlpha = 1;

    // Circles grow slower than the zoom, so zooming in separates crowded nodes.
    const shrink = 1 / Math.sqrt(Math.max(1, k));
    for (const n of nodes) {
      ctx.beginPath();
      ctx.arc(n.x!, n.y!, radius(n) * shrink, 0, 2 * Math.PI);
      ctx.fillStyle = n.kind === 'doc' ? c.doc : n.kind === 'entity' ? c.entity : c.super;
      ctx.globalAlpha = highlight.size && !highlight.has(n.id) ? 0.2 : 1;
      ctx.fill();
      if (highlight.has(n.id) || n === hovered) {
        ctx.lineWidth = 2 / k;
        ctx.strokeStyle = c.accent;
        ctx.stroke();
      }
    }
    ctx.globalAlpha = 1;

    // Level of detail: labels by importance as you zoom in, only for nodes on screen, and never more
    // than MAX_LABELS at once (the best-connected win); hovered and found nodes always get theirs.
    const [x0, y0] = toGraph(0, 0);
    const [x1, y1] = toGraph(canvas.clientWidth, canvas.clientHeight);
    const candidates = nodes.filter(
      (n) =>
        n.x! >= x0 &&
        n.x! <= x1 &&
        n.y! >= y0 &&
        n.y! <= y1 &&
        ((n.degree > labelDegree && k > 0.6) || (n.kind === 'doc' ? k > 1.8 : k > 3 || (k > 2.2 && n.degree > 3))),
    );
    candidates.sort((a, b) => b.degree - a.degree);
    const labelled = new Set([...candidates.slice(0, MAX_LABELS), ...nodes.filter((n) => n === hovered || n === centre || highlight.has(n.id))]);
    ctx.fillStyle = c.text;
    ctx.strokeStyle = c.bg;
    ctx.lineWidth = 3 / k;
    ctx.lineJoin = 'round';
    ctx.font = `${12 / k}px system-ui, sans-serif`;
    for (const n of labelled) {
      const label = n.label.length > 40 ? `${n.label.slice(0, 39)}…` : n.label;
      const x = n.x! + radius(n) * shrink + 2 / k;
      const y = n.y! + 4 / k;
      ctx.strokeText(label, x, y);
      ctx.fillText(label, x, y);
    }

    // Cluster names at their centroids, biggest clusters first, readable at any zoom.
    if (clusters.size > 1) {
      ctx.font = `600 ${13 / k}px system-ui, sans-serif`;
      ctx.lineWidth = 4 / k;
      const biggest = [...clusters.entries()].sort((a, b) => b[1].length - a[1].length).slice(0, 24);
      for (const [key, members] of biggest) {
        if (members.length < 3) continue;
        let cx = 0;
        let cy = 0;
        for (const m of members) {
          cx += m.x!;
          cy += m.y!;
        }
        const text = `${key.length > 32 ? `${key.slice(0, 31)}…` : key} (${members.length})`;
        const w = ctx.measureText(text).width;
        ctx.strokeText(text, cx / members.length - w / 2, cy / members.length);
        ctx.fillText(text, cx / members.length - w / 2, cy / members.length);
      }
    }
    ctx.restore();
  }

  function fit(animate = false) {
    if (!nodes.length) return;
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (const n of nodes) {
      x0 = Math.min(x0, n.x!);
      y0 = Math.min(y0, n.y!);
      x1 = Math.max(x1, n.x!);
      y1 = Math.max(y1, n.y!);
    }
    const w = canvas.clientWidth || 800;
    const h = canvas.clientHeight || 600;
    const k = Math.max(0.05, Math.min(2.5, (w - 60) / Math.max(1, x1 - x0), (h - 60) / Math.max(1, y1 - y0)));
    const t = d3.zoomIdentity.scale(k).translate(-(x0 + x1) / 2, -(y0 + y1) / 2);
    if (animate) selection.transition().duration(350).call(zoom.transform, t);
    else selection.call(zoom.transform, t);
  }

  const nodeAt = (e: MouseEvent) => {
    const rect = canvas.getBoundingClientRect();
    const [x, y] = toGraph(e.clientX - rect.left, e.clientY - rect.top);
    return sim.find(x, y, 12 / Math.sqrt(transform.k)) ?? null;
  };

  const zoom = d3
    .zoom<HTMLCanvasElement, unknown>()
    .scaleExtent([0.05, 8])
    .on('zoom', (e) => {
      transform = e.transform;
      draw();
    });
  const selection = d3.select(canvas).call(zoom);
  canvas.addEventListener('mousemove', onMove);
  canvas.addEventListener('click', onClick);
  const observer = new ResizeObserver(() => {
    resize();
    draw();
  });
  observer.observe(canvas);

  function onMove(e: MouseEvent) {
    const n = nodeAt(e);
    if (n !== hovered) {
      hovered = n;
      handlers.onHover(n);
      draw();
    }
  }
  function onClick(e: MouseEvent) {
    const n = nodeAt(e);
    if (n) handlers.onClick(n);
  }

  return {
    setHighlight(query) {
      const q = query.trim().toLowerCase();
      highlight = new Set(q ? nodes.filter((n) => n.label.toLowerCase().includes(q)).map((n) => n.id) : []);
      draw();
      return q ? (nodes.find((n) => highlight.has(n.id)) ?? null) : null;
    },
    focus(n) {
      selection.transition().duration(300).call(zoom.transform, d3.zoomIdentity.scale(2).translate(-(n.x ?? 0), -(n.y ?? 0)));
    },
    fit,
    redraw: draw,
    destroy() {
      sim.stop();
      observer.disconnect();
      selection.on('.zoom', null);
      canvas.removeEventListener('mousemove', onMove);
      canvas.removeEventListener('click', onClick);
    },
  };
}
