// The graph's force layout on plain arrays, so it can run in a Web Worker (graph-layout.worker.ts) and
// leave the page free to draw, zoom and hover while thousands of nodes settle. Also runs on the page
// itself where a worker cannot start.
import * as d3 from 'd3';

export interface LayoutInput {
  /** Per node: kind (0 doc, 1 entity, 2 super-topic), degree, pinned. */
  kind: Uint8Array;
  degree: Float32Array;
  pinned: Int32Array;
  /** Per link: source and target node index, and whether it is a similarity link. */
  source: Int32Array;
  target: Int32Array;
  similar: Uint8Array;
}

type N = d3.SimulationNodeDatum & { i: number };

export function radiusOf(kind: number, degree: number): number {
  return (kind === 0 ? 5 : kind === 2 ? 4 : 3) + Math.min(6, Math.sqrt(degree));
}

/** Builds the simulation, stopped: the caller ticks it and reads positions. */
export function createLayout(input: LayoutInput) {
  const n = input.kind.length;
  const nodes: N[] = Array.from({ length: n }, (_, i) => ({ i }));
  for (const p of input.pinned) {
    const node = nodes[p];
    if (!node) continue;
    node.fx = 0;
    node.fy = 0;
  }
  const links = Array.from(input.source, (s, j) => ({ source: s, target: input.target[j]!, similar: input.similar[j] === 1 }));
  const sim = d3
    .forceSimulation(nodes)
    .force('link', d3.forceLink<N, (typeof links)[number]>(links).distance((l) => (l.similar ? 60 : 35)).strength(0.4))
    .force('charge', d3.forceManyBody<N>().strength(-40).theta(0.9).distanceMax(320))
    .force('center', d3.forceCenter(0, 0))
    .force('collide', d3.forceCollide<N>().radius((d) => radiusOf(input.kind[d.i]!, input.degree[d.i]!) + 1).iterations(1))
    .alphaDecay(n > 1500 ? 0.06 : 0.03)
    .stop();
  return {
    /** One step; returns false once the layout has settled. */
    step(): boolean {
      sim.tick();
      return sim.alpha() >= sim.alphaMin();
    },
    positions(out: Float32Array): Float32Array {
      for (let i = 0; i < n; i++) {
        out[2 * i] = nodes[i]!.x!;
        out[2 * i + 1] = nodes[i]!.y!;
      }
      return out;
    },
  };
}
