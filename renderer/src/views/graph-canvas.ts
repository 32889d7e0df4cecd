// Canvas drawing and interaction for the graph view; the force layout runs in a Web Worker
// (graph-layout.worker.ts) so that at thousands of nodes the page keeps drawing, zooming and hovering
// while the layout settles. Canvas, not SVG. Level of detail: labels appear by importance as you zoom
// in; links fade when dense; nodes are filled in one path per kind.
import * as d3 from 'd3';
import type { Res } from '../../../main/contract/contract.js';
import { createLayout, radiusOf, type LayoutInput } from './graph-layout.js';

type Graph = Res<'graph.view'>;
export type GNode = Graph['nodes'][number] & { x?: number; y?: number; degree: number };
export type GLink = { source: string; target: string; kind: Graph['links'][number]['kind']; weight: number };

const MAX_LABELS = 60;
const KIND_INDEX = { doc: 0, entity: 1, 'super-topic': 2 } as const;

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
  linkList: GLink[],
  handlers: { onHover(n: GNode | null): void; onClick(n: GNode): void; onSettled?(): void },
  options: {
    /** The note a local graph is centred on: pinned in the middle, always labelled. */
    centreId?: string;
  } = {},
): GraphScene {
  const ctx = canvas.getContext('2d')!;
  let transform = d3.zoomIdentity;
  let highlight = new Set<string>();
  let hovered: GNode | null = null;
  const dpr = window.devicePixelRatio || 1;
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  const links = linkList.filter((l) => index.has(l.source) && index.has(l.target)).map((l) => ({ ...l, s: nodes[index.get(l.source)!]!, t: nodes[index.get(l.target)!]! }));
  const radius = (n: GNode) => radiusOf(KIND_INDEX[n.kind], n.degree);

  // Start positions on a phyllotaxis spiral (as d3 does), so the first frame already shows every node.
  nodes.forEach((n, i) => {
    const r = 10 * Math.sqrt(0.5 + i);
    const a = i * Math.PI * (3 - Math.sqrt(5));
    n.x = r * Math.cos(a);
    n.y = r * Math.sin(a);
  });

  const resize = () => {
    canvas.width = canvas.clientWidth * dpr;
    canvas.height = canvas.clientHeight * dpr;
  };
  resize();

  const toGraph = (px: number, py: number): [number, number] => {
    const [x, y] = transform.invert([px - canvas.clientWidth / 2, py - canvas.clientHeight / 2]);
    return [x, y];
  };

  const centre = options.centreId ? nodes.find((n) => n.id === options.centreId) : undefined;
  if (centre) centre.x = centre.y = 0;

  const input: LayoutInput = {
    kind: Uint8Array.from(nodes, (n) => KIND_INDEX[n.kind]),
    degree: Float32Array.from(nodes, (n) => n.degree),
    pinned: Int32Array.from(centre ? [index.get(centre.id)!] : []),
    source: Int32Array.from(links, (l) => index.get(l.source)!),
    target: Int32Array.from(links, (l) => index.get(l.target)!),
    similar: Uint8Array.from(links, (l) => (l.kind === 'similar' ? 1 : 0)),
  };

  let frame = 0;
  let ticks = 0;
  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(() => ((frame = 0), draw()));
  };
  const apply = (positions: Float32Array) => {
    for (let i = 0; i < nodes.length; i++) {
      nodes[i]!.x = positions[2 * i]!;
      nodes[i]!.y = positions[2 * i + 1]!;
    }
    // Once the layout has taken shape, frame it; the final fit happens when it settles.
    if (++ticks === 30) fit(true);
    schedule();
  };
  const settled = () => {
    fit(true);
    handlers.onSettled?.();
  };

  // The layout: in a worker when the page can start one, else on the page in small time slices.
  let stopLayout: () => void;
  try {
    const worker = new Worker(new URL('./graph-layout.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (e: MessageEvent<{ type: 'tick' | 'end'; positions: Float32Array }>) => {
      apply(e.data.positions);
      if (e.data.type === 'end') settled();
    };
    worker.postMessage({ type: 'start', input });
    stopLayout = () => worker.terminate();
  } catch {
    const layout = createLayout(input);
    const buf = new Float32Array(2 * nodes.length);
    let live = true;
    const slice = () => {
      if (!live) return;
      const until = performance.now() + 12;
      let alive = true;
      while (alive && performance.now() < until) alive = layout.step();
      apply(layout.positions(buf));
      if (alive) setTimeout(slice, 0);
      else settled();
    };
    setTimeout(slice, 0);
    stopLayout = () => (live = false);
  }

  function colors() {
    const css = getComputedStyle(document.documentElement);
    const v = (name: string) => css.getPropertyValue(name).trim();
    return { doc: v('--node-doc'), entity: v('--node-entity'), super: v('--node-super'), edge: v('--edge'), text: v('--text'), accent: v('--accent'), bg: v('--bg-elevated') };
  }

  let painted = false;
  function draw() {
    if (!painted) {
      painted = true;
      // Read by the scale test: when the first frame of this graph reached the screen.
      performance.mark('loci-graph-first-paint');
    }
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
      ctx.moveTo(l.s.x!, l.s.y!);
      ctx.lineTo(l.t.x!, l.t.y!);
    }
    ctx.stroke();

    // Circles grow slower than the zoom, so zooming in separates crowded nodes. One path per kind and
    // emphasis: a few fills instead of one per node.
    const shrink = 1 / Math.sqrt(Math.max(1, k));
    const fills: [string, boolean][] = [
      [c.doc, false],
      [c.entity, false],
      [c.super, false],
      [c.doc, true],
      [c.entity, true],
      [c.super, true],
    ];
    const dim = highlight.size > 0;
    for (const [i, [color, lit]] of fills.entries()) {
      const kind = i % 3;
      ctx.beginPath();
      for (const n of nodes) {
        if (KIND_INDEX[n.kind] !== kind) continue;
        if (dim && highlight.has(n.id) !== lit) continue;
        if (!dim && lit) continue;
        const r = radius(n) * shrink;
        ctx.moveTo(n.x! + r, n.y!);
        ctx.arc(n.x!, n.y!, r, 0, 2 * Math.PI);
      }
      ctx.fillStyle = color;
      ctx.globalAlpha = dim && !lit ? 0.2 : 1;
      ctx.fill();
    }
    ctx.globalAlpha = 1;
    ctx.lineWidth = 2 / k;
    ctx.strokeStyle = c.accent;
    for (const n of nodes) {
      if (n !== hovered && n !== centre && !highlight.has(n.id)) continue;
      ctx.beginPath();
      ctx.arc(n.x!, n.y!, radius(n) * shrink, 0, 2 * Math.PI);
      ctx.stroke();
    }

    // Level of detail: labels by importance as you zoom in, only for nodes on screen, and never more
    // than MAX_LABELS at once (the best-connected win); hovered, centre and found nodes always get theirs.
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

    ctx.restore();
  }

  // The few best-connected nodes keep their labels at any zoom; the rest appear as you zoom in.
  const labelDegree = [...nodes].map((n) => n.degree).sort((a, b) => b - a)[Math.min(12, nodes.length - 1)] ?? 0;

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

  // Hit test: the nearest node within a few pixels (a linear scan: thousands of nodes take microseconds).
  const nodeAt = (e: MouseEvent) => {
    const rect = canvas.getBoundingClientRect();
    const [x, y] = toGraph(e.clientX - rect.left, e.clientY - rect.top);
    const reach = 12 / Math.sqrt(transform.k);
    let best: GNode | null = null;
    let bestD = reach * reach;
    for (const n of nodes) {
      const d = (n.x! - x) ** 2 + (n.y! - y) ** 2;
      if (d < bestD) {
        bestD = d;
        best = n;
      }
    }
    return best;
  };

  const zoom = d3
    .zoom<HTMLCanvasElement, unknown>()
    .scaleExtent([0.05, 8])
    .on('zoom', (e) => {
      transform = e.transform;
      schedule();
    });
  const selection = d3.select(canvas).call(zoom);
  canvas.addEventListener('mousemove', onMove);
  canvas.addEventListener('click', onClick);
  const observer = new ResizeObserver(() => {
    resize();
    schedule();
  });
  observer.observe(canvas);
  fit(false);
  draw();

  function onMove(e: MouseEvent) {
    const n = nodeAt(e);
    if (n !== hovered) {
      hovered = n;
      handlers.onHover(n);
      schedule();
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
      schedule();
      return q ? (nodes.find((n) => highlight.has(n.id)) ?? null) : null;
    },
    focus(n) {
      selection.transition().duration(300).call(zoom.transform, d3.zoomIdentity.scale(2).translate(-(n.x ?? 0), -(n.y ?? 0)));
    },
    fit,
    redraw: schedule,
    destroy() {
      stopLayout();
      if (frame) cancelAnimationFrame(frame);
      observer.disconnect();
      selection.on('.zoom', null);
      canvas.removeEventListener('mousemove', onMove);
      canvas.removeEventListener('click', onClick);
    },
  };
}
