import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Button, EmptyState, ErrorBox, ui } from '../components/ui.js';
import { useApp } from '../lib/app-context.js';
import { useCall } from '../lib/use-call.js';
import { createScene, type GLink, type GNode, type GraphScene } from './graph-canvas.js';
import views from './views.module.css';
import css from './Graph.module.css';

type Kind = GNode['kind'];
const KINDS: { kind: Kind; label: string; swatch: string }[] = [
  { kind: 'doc', label: 'Notes', swatch: css.doc! },
  { kind: 'entity', label: 'Entities', swatch: css.entity! },
  { kind: 'super-topic', label: 'Super-topics', swatch: css.super! },
];
const LIMITS = [300, 1000, 3000, 8000];

export function GraphView() {
  const { openMindMap, indexVersion } = useApp();
  const [limit, setLimit] = useState(1000);
  const graph = useCall('graph.view', { limit }, [indexVersion]);
  const [kinds, setKinds] = useState<Set<Kind>>(new Set(['doc', 'entity', 'super-topic']));
  const [minDegree, setMinDegree] = useState(1);
  const [query, setQuery] = useState('');
  const [hovered, setHovered] = useState<GNode | null>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const scene = useRef<GraphScene | null>(null);

  // Filtering happens before layout so hidden nodes cost nothing.
  const filtered = useMemo(() => {
    if (!graph.data) return null;
    const degree = new Map<string, number>();
    for (const l of graph.data.links) {
      degree.set(l.source, (degree.get(l.source) ?? 0) + 1);
      degree.set(l.target, (degree.get(l.target) ?? 0) + 1);
    }
    const nodes: GNode[] = graph.data.nodes
      .filter((n) => kinds.has(n.kind) && (n.kind === 'doc' || (degree.get(n.id) ?? 0) >= minDegree))
      .map((n) => ({ ...n, degree: degree.get(n.id) ?? 0 }));
    const ids = new Set(nodes.map((n) => n.id));
    const links: GLink[] = graph.data.links.filter((l) => ids.has(l.source) && ids.has(l.target)).map((l) => ({ ...l }));
    return { nodes, links };
  }, [graph.data, kinds, minDegree]);

  useEffect(() => {
    if (!filtered || !canvasRef.current) return;
    const s = createScene(canvasRef.current, filtered.nodes, filtered.links, {
      onHover: setHovered,
      onClick: (n) => n.docPath && openMindMap({ docPath: n.docPath, docId: n.docId }),
    });
    scene.current = s;
    return () => s.destroy();
  }, [filtered, openMindMap]);

  useEffect(() => {
    scene.current?.setHighlight(query);
  }, [query, filtered]);

  function find(e: FormEvent) {
    e.preventDefault();
    const n = scene.current?.setHighlight(query);
    if (n) scene.current?.focus(n);
  }

  const toggleKind = (k: Kind) =>
    setKinds((prev) => {
      const next = new Set(prev);
      if (next.has(k)) next.delete(k);
      else next.add(k);
      return next;
    });

  return (
    <section className={views.view} aria-labelledby="graph-title">
      <div className={views.header}>
        <h1 id="graph-title" className={ui.heading}>
          Graph
        </h1>
        <span className={ui.muted}>{filtered ? `${filtered.nodes.length.toLocaleString()} nodes, ${filtered.links.length.toLocaleString()} links shown` : ''}</span>
      </div>
      <div className={`${ui.row}`}>
        {KINDS.map((k) => (
          <label key={k.kind} className={css.check}>
            <input type="checkbox" checked={kinds.has(k.kind)} onChange={() => toggleKind(k.kind)} />
            {k.label}
          </label>
        ))}
        <label className={css.check}>
          Min. links
          <input type="range" min={1} max={10} value={minDegree} onChange={(e) => setMinDegree(Number(e.target.value))} aria-label="Minimum links for entities and super-topics" />
          {minDegree}
        </label>
        <label className={css.check}>
          Nodes
          <select className={ui.select} value={limit} onChange={(e) => setLimit(Number(e.target.value))} aria-label="Maximum nodes loaded">
            {LIMITS.map((l) => (
              <option key={l} value={l}>
                {l.toLocaleString()}
              </option>
            ))}
          </select>
        </label>
        <form className={ui.row} onSubmit={find} role="search">
          <input className={ui.input} type="search" placeholder="Find a node" aria-label="Find a node in the graph" value={query} onChange={(e) => setQuery(e.target.value)} />
          <Button type="submit" size="small">
            Find
          </Button>
        </form>
      </div>
      <ErrorBox error={graph.error} />
      {graph.data && graph.data.nodes.length === 0 ? (
        <EmptyState title="The graph is empty">
          <span>Index a notes folder in the Library: notes, the entities they share and their super-topics appear here.</span>
        </EmptyState>
      ) : (
        <div className={css.canvasWrap}>
          <canvas ref={canvasRef} data-testid="graph-canvas" aria-label="Graph of notes, entities and super-topics. Use the search field to find a node." role="img" />
          {graph.loading && <div className={css.tooltip}>Loading graph…</div>}
          {hovered && (
            <div className={css.tooltip} role="status">
              <strong>{hovered.label}</strong>
              <div className={ui.muted}>
                {hovered.kind} · {hovered.degree} link{hovered.degree === 1 ? '' : 's'}
                {hovered.docPath ? ` · ${hovered.docPath} (click for its mind map)` : ''}
              </div>
            </div>
          )}
          <div className={css.legend} aria-hidden>
            {KINDS.map((k) => (
              <span key={k.kind}>
                <span className={`${css.swatch} ${k.swatch}`} />
                {k.label}
              </span>
            ))}
          </div>
        </div>
      )}
    </section>
  );
}
