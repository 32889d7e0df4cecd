import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import type { Res } from '../../../main/contract/contract.js';
import { Button, EmptyState, ErrorBox, Notice, ui } from '../components/ui.js';
import { useApp } from '../lib/app-context.js';
import { useCall } from '../lib/use-call.js';
import { createScene, type GLink, type GNode, type GraphScene } from './graph-canvas.js';
import { GraphOverview, type Grouping } from './GraphOverview.js';
import views from './views.module.css';
import css from './Graph.module.css';

type Graph = Res<'graph.view'>;
type Kind = GNode['kind'];
const KINDS: { kind: Kind; label: string; swatch: string }[] = [
  { kind: 'doc', label: 'Notes', swatch: css.doc! },
  { kind: 'entity', label: 'Entities', swatch: css.entity! },
  { kind: 'super-topic', label: 'Super-topics', swatch: css.super! },
];

export function GraphView() {
  const { client, openMindMap, openNote, openGraph, openSwitcher, graphDoc, indexVersion } = useApp();
  const [hops, setHops] = useState(1);
  const [grouping, setGrouping] = useState<Grouping>('folder');
  const [overviewSummary, setOverviewSummary] = useState('');
  const local = graphDoc !== null;
  const localCall = local && graphDoc?.docId !== undefined;
  // The whole library is the cluster overview (GraphOverview); every note's graph is loaded only as the
  // source of a local graph when the engine has no graph.local.
  const global = useCall('graph.view', local && !localCall ? { limit: 8000 } : null, [indexVersion]);
  const [localData, setLocalData] = useState<{ key: string; graph: Graph | null; error: unknown }>({ key: '', graph: null, error: null });
  const [kinds, setKinds] = useState<Set<Kind>>(new Set(['doc', 'entity', 'super-topic']));
  const [minDegree, setMinDegree] = useState(1);
  const [query, setQuery] = useState('');
  const [hovered, setHovered] = useState<GNode | null>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const scene = useRef<GraphScene | null>(null);
  const localKey = `${graphDoc?.docId ?? graphDoc?.docPath}:${hops}:${indexVersion}`;

  useEffect(() => {
    if (!localCall || !graphDoc) return;
    let live = true;
    performance.clearMarks('loci-graph-first-paint');
    client.call('graph.local', { docId: graphDoc.docId!, hops: hops === 2 ? 2 : 1, limit: 1500 }).then(
      (graph) => live && setLocalData({ key: localKey, graph, error: null }),
      (error: unknown) => live && setLocalData({ key: localKey, graph: null, error }),
    );
    return () => {
      live = false;
    };
  }, [client, localCall, graphDoc, hops, localKey]);

  const source: Graph | null = useMemo(() => {
    if (!local) return global.data;
    if (localCall) return localData.key === localKey ? localData.graph : null;
    return global.data && graphDoc ? neighbourhood(global.data, graphDoc, hops) : null;
  }, [local, localCall, global.data, localData, localKey, graphDoc, hops]);
  const centreId = local && source ? source.nodes.find((n) => n.kind === 'doc' && (n.docId === graphDoc?.docId || n.docPath === graphDoc?.docPath))?.id : undefined;
  const loading = localCall ? localData.key !== localKey : global.loading;
  const error = localCall ? localData.error : global.error;

  // Filtering happens before layout so hidden nodes cost nothing; the same filters hold in both modes.
  const filtered = useMemo(() => {
    if (!source) return null;
    const degree = new Map<string, number>();
    for (const l of source.links) {
      degree.set(l.source, (degree.get(l.source) ?? 0) + 1);
      degree.set(l.target, (degree.get(l.target) ?? 0) + 1);
    }
    const nodes: GNode[] = source.nodes
      .filter((n) => n.id === centreId || (kinds.has(n.kind) && (n.kind === 'doc' || (degree.get(n.id) ?? 0) >= minDegree)))
      .map((n) => ({ ...n, degree: degree.get(n.id) ?? 0 }));
    const ids = new Set(nodes.map((n) => n.id));
    const links: GLink[] = source.links.filter((l) => ids.has(l.source) && ids.has(l.target)).map((l) => ({ ...l }));
    return { nodes, links };
  }, [source, kinds, minDegree, centreId]);

  const [settled, setSettled] = useState(false);
  useEffect(() => {
    if (!local || !filtered || !canvasRef.current) return;
    // Read by the scale test: when the data was in hand and the scene began.
    performance.mark('loci-graph-scene-start');
    setSettled(false);
    const s = createScene(
      canvasRef.current,
      filtered.nodes,
      filtered.links,
      {
        onHover: setHovered,
        onSettled: () => setSettled(true),
        onClick: (n) => n.docPath && openNote({ docPath: n.docPath, docId: n.docId }),
      },
      { centreId },
    );
    scene.current = s;
    return () => s.destroy();
  }, [filtered, openNote, local, centreId]);

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

  const centreLabel = source?.nodes.find((n) => n.id === centreId)?.label ?? graphDoc?.docPath;
  const localGraph = (
    <>
      <div className={ui.row}>
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
        <form className={ui.row} onSubmit={find} role="search">
          <input className={ui.input} type="search" placeholder="Find a node" aria-label="Find a node in the graph" value={query} onChange={(e) => setQuery(e.target.value)} />
          <Button type="submit" size="small">
            Find
          </Button>
        </form>
        <Button size="small" onClick={() => scene.current?.fit(true)}>
          Fit to view
        </Button>
      </div>
      <ErrorBox error={error} />
      {local && !loading && source && !centreId && <Notice>This note is not among the graph's nodes (it may have no links yet).</Notice>}
      {source && source.nodes.length === 0 ? (
        <EmptyState title="The graph is empty">
          <span>Index a notes folder in the Library: notes, the entities they share and their super-topics appear here.</span>
        </EmptyState>
      ) : (
        <div className={css.canvasWrap}>
          <canvas
            ref={canvasRef}
            data-testid="graph-canvas"
            data-settled={settled || undefined}
            aria-label={`${local ? `Local graph around ${centreLabel}` : 'Graph of notes, entities and super-topics'}. Use the search field to find a node; the quick switcher (Ctrl+K) opens notes.`}
            role="img"
          />
          {loading && <div className={css.tooltip}>Loading graph…</div>}
          {hovered && (
            <div className={css.tooltip} role="status">
              <strong>{hovered.label}</strong>
              <div className={ui.muted}>
                {hovered.kind} · {hovered.degree} link{hovered.degree === 1 ? '' : 's'}
                {hovered.docPath ? ` · ${hovered.docPath} (click to open)` : ''}
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
    </>
  );
  return (
    <section className={views.view} aria-labelledby="graph-title">
      <div className={views.header}>
        <h1 id="graph-title" className={ui.heading}>
          Graph
        </h1>
        <span className={ui.muted} data-testid="graph-summary">
          {!local ? overviewSummary : filtered ? `${filtered.nodes.length.toLocaleString()} nodes, ${filtered.links.length.toLocaleString()} links shown` : ''}
        </span>
      </div>
      <div className={ui.row} role="group" aria-label="What the graph shows">
        {local ? (
          <>
            <span data-testid="graph-mode">
              Around <strong>{centreLabel}</strong>
            </span>
            <label className={css.check}>
              Hops
              <select className={ui.select} value={hops} onChange={(e) => setHops(Number(e.target.value))} aria-label="How many links away from the note">
                <option value={1}>1</option>
                <option value={2}>2</option>
              </select>
            </label>
            <Button size="small" onClick={() => openSwitcher('graph')}>
              Another note…
            </Button>
            <Button size="small" onClick={() => openGraph(null)}>
              Whole library
            </Button>
          </>
        ) : (
          <>
            <span data-testid="graph-mode">Whole library</span>
            <label className={css.check}>
              Group by
              <select className={ui.select} value={grouping} onChange={(e) => setGrouping(e.target.value as Grouping)} aria-label="Group notes by">
                <option value="folder">Folder</option>
                <option value="topic">Super-topic</option>
              </select>
            </label>
            <Button size="small" onClick={() => openSwitcher('graph')}>
              Around a note…
            </Button>
          </>
        )}
      </div>
      {local ? localGraph : <GraphOverview by={grouping} onOpenNote={openMindMap} onSummary={setOverviewSummary} />}
    </section>
  );
}

/** The note's neighbourhood within a loaded graph, up to `hops` links away (used when the engine has no graph.local). */
function neighbourhood(graph: Graph, note: { docId?: number; docPath: string }, hops: number): Graph {
  const start = graph.nodes.find((n) => n.kind === 'doc' && (n.docId === note.docId || n.docPath === note.docPath));
  if (!start) return { nodes: [], links: [] };
  const adj = new Map<string, string[]>();
  for (const l of graph.links) {
    (adj.get(l.source) ?? adj.set(l.source, []).get(l.source)!).push(l.target);
    (adj.get(l.target) ?? adj.set(l.target, []).get(l.target)!).push(l.source);
  }
  const keep = new Set([start.id]);
  let frontier = [start.id];
  for (let h = 0; h < hops; h++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const m of adj.get(id) ?? []) {
        if (keep.has(m)) continue;
        keep.add(m);
        next.push(m);
      }
    }
    frontier = next;
  }
  return { nodes: graph.nodes.filter((n) => keep.has(n.id)), links: graph.links.filter((l) => keep.has(l.source) && keep.has(l.target)) };
}
