// The whole library at a glance: the engine's clusters (graph.overview) as circles sized by their notes,
// their counted edges as lines; a click or Enter opens one (graph.cluster) into its notes, ringed by the
// other clusters; Escape goes back. SVG: a few dozen to a few hundred nodes, each one a focusable element.
// One tab stop (roving tabindex), arrows move between nodes; labels are placed so none overlap.
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { Res } from '../../../main/contract/contract.js';
import { Button, EmptyState, ErrorBox, ui } from '../components/ui.js';
import { useApp } from '../lib/app-context.js';
import { useCall } from '../lib/use-call.js';
import { layoutClusters, layoutOpened, placeLabels, shortLabels, type Box, type LabelRequest, type Placed } from './overview-layout.js';
import css from './Graph.module.css';

type Overview = Res<'graph.overview'>;
type Opened = Res<'graph.cluster'>;
type Cluster = Overview['clusters'][number];
export type Grouping = Overview['by'];

interface Item extends Placed {
  kind: 'cluster' | 'note';
  /** Full name, for the tooltip and screen readers. */
  name: string;
  /** What the label shows. */
  label: string;
  cluster?: Cluster;
  note?: Opened['nodes'][number];
  degree: number;
  color?: string;
}

const CLUSTER_FONT = 12;
const NOTE_FONT = 11;
const FONT_FAMILY = 'system-ui, sans-serif';
const MAX_LABEL = 30;
/** Mid-tone hues that read on the light and the dark theme. */
const PALETTE = ['#a0429b', '#2f8f83', '#c0622f', '#5b6fd6', '#8f7a1f', '#c2417a', '#4d8f2f', '#7a55c2'];

export function GraphOverview({ by, onOpenNote, onSummary }: { by: Grouping; onOpenNote(note: { docPath: string; docId?: number }): void; onSummary(text: string): void }) {
  const { client, indexVersion } = useApp();
  const overview = useCall('graph.overview', { by }, [indexVersion]);
  const wrap = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<{ w: number; h: number } | null>(null);
  const [opened, setOpened] = useState<{ id: string; view: Opened | null; error: unknown } | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const [hoverId, setHoverId] = useState<string | null>(null);
  const elements = useRef(new Map<string, SVGGElement>());
  const pendingFocus = useRef<string | null>(null);

  useLayoutEffect(() => {
    const el = wrap.current;
    if (!el) return;
    const measure = () => setSize((s) => (s && s.w === el.clientWidth && s.h === el.clientHeight ? s : { w: el.clientWidth, h: el.clientHeight }));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // A new overview (another grouping, a re-index) closes the opened cluster.
  useEffect(() => {
    setOpened(null);
    if (overview.data) performance.mark('loci-graph-scene-start');
  }, [overview.data]);

  const data = overview.data;
  const base = useMemo(() => {
    if (!data || !size) return null;
    const short = by === 'folder' ? shortLabels(data.clusters.map((c) => c.label)) : data.clusters.map((c) => c.label);
    const labels = data.clusters.map((c, i) => clip(`${short[i]} (${c.notes.toLocaleString()})`));
    const widths = labels.map((l) => textWidth(l, CLUSTER_FONT, 600));
    const placed = layoutClusters(
      data.clusters.map((c, i) => ({ id: c.id, notes: c.notes, labelWidth: widths[i]! })),
      data.links,
      size.w,
      size.h,
    );
    // Clusters in the same parent folder share a colour, so the folder tree shows at a glance.
    const parents = data.clusters.map((c) => (c.kind === 'topic' ? c.folder : c.folder.split('/').slice(0, -1).join('/')));
    const hue = new Map([...new Set(parents)].map((p, i) => [p, PALETTE[i % PALETTE.length]!]));
    const items: Item[] = placed.map((p, i) => ({ ...p, kind: 'cluster', name: data.clusters[i]!.label, label: labels[i]!, cluster: data.clusters[i], degree: data.clusters[i]!.notes, color: hue.get(parents[i]!) }));
    return { items, byId: new Map(items.map((it) => [it.id, it])) };
  }, [data, size, by]);

  const openView = opened?.view && opened.view.cluster.id === opened.id ? opened.view : null;
  const scene = useMemo(() => {
    if (!base || !size || !data) return null;
    if (!openView) {
      const lines = data.links.map((l) => ({ a: base.byId.get(l.source)!, b: base.byId.get(l.target)!, weight: l.weight })).filter((l) => l.a && l.b);
      return { items: base.items, lines, halo: null as { x: number; y: number; rx: number; ry: number } | null, openedItem: null as Item | null };
    }
    const centre = base.byId.get(openView.cluster.id)!;
    const others = base.items.filter((it) => it.id !== openView.cluster.id);
    const degree = new Map<string, number>();
    // Links counted, whatever their similarity.
    for (const l of openView.outward) degree.set(l.source, (degree.get(l.source) ?? 0) + l.weight);
    for (const l of openView.links) for (const end of [l.source, l.target]) degree.set(end, (degree.get(end) ?? 0) + 1);
    const laid = layoutOpened(
      centre,
      others.map((o) => ({ id: o.id, notes: o.cluster!.notes, x: o.x, y: o.y })),
      openView.nodes.map((n) => ({ id: n.id, degree: degree.get(n.id) ?? 0 })),
      [...openView.links.map((l) => ({ ...l, weight: 1 })), ...openView.outward],
      size.w,
      size.h,
    );
    const ring: Item[] = laid.clusters.map((p) => ({ ...base.byId.get(p.id)!, ...p }));
    const notes: Item[] = laid.notes.map((p, i) => {
      const n = openView.nodes[i]!;
      return { ...p, kind: 'note', name: n.label, label: clip(n.label), note: n, degree: degree.get(n.id) ?? 0 };
    });
    notes.sort((a, b) => b.degree - a.degree);
    const at = new Map([...ring, ...notes].map((it) => [it.id, it]));
    const lines = [...openView.links, ...openView.outward].map((l) => ({ a: at.get(l.source)!, b: at.get(l.target)!, weight: l.weight })).filter((l) => l.a && l.b);
    const openedItem: Item = { ...centre, x: laid.halo.x, y: laid.halo.y - laid.halo.ry, r: 0 };
    return { items: [...notes, ...ring], lines, halo: laid.halo, openedItem };
  }, [base, size, data, openView]);

  const labels = useMemo(() => {
    if (!scene || !size) return new Map<string, Box>();
    const requests: LabelRequest[] = scene.items.map((it) => {
      const font = it.kind === 'cluster' ? CLUSTER_FONT : NOTE_FONT;
      const ring = scene.halo && it.kind === 'cluster';
      return {
        id: it.id,
        x: it.x,
        y: it.y,
        r: it.r,
        w: textWidth(it.label, font, it.kind === 'cluster' ? 600 : 400) + 4,
        h: Math.ceil(font * 1.3),
        priority: (it.kind === 'cluster' ? 1e6 : 0) + it.degree,
        towards: ring ? { dx: it.x - scene.halo!.x, dy: it.y - scene.halo!.y } : undefined,
      };
    });
    const obstacles: Placed[] = scene.items;
    // The opened cluster's name sits above its halo, before anything else is placed.
    if (scene.openedItem && scene.halo) {
      const w = textWidth(scene.openedItem.label, CLUSTER_FONT + 1, 700) + 4;
      requests.push({ id: scene.openedItem.id, x: scene.halo.x, y: scene.halo.y - scene.halo.ry - 12, r: 0, w, h: Math.ceil((CLUSTER_FONT + 1) * 1.3), priority: 2e6 });
    }
    return placeLabels(requests, obstacles, size.w, size.h);
  }, [scene, size]);

  // Read by the scale test: the first frame with this overview (or this opened cluster) on screen.
  useEffect(() => {
    if (!scene) return;
    const name = openView ? 'loci-graph-cluster-paint' : 'loci-graph-first-paint';
    const frame = requestAnimationFrame(() => performance.mark(name));
    return () => cancelAnimationFrame(frame);
  }, [scene, openView]);

  useEffect(() => {
    if (!scene) return;
    onSummary(
      openView
        ? `${openView.cluster.label}: ${openView.nodes.length.toLocaleString()} notes, ${openView.links.length.toLocaleString()} links among them, ${openView.outward.length.toLocaleString()} to other clusters`
        : `${data!.clusters.length.toLocaleString()} clusters of ${data!.notes.toLocaleString()} notes, ${data!.links.length.toLocaleString()} links between clusters`,
    );
  }, [scene, openView, data, onSummary]);

  // Focus follows what the user did: into the opened cluster's notes, back to the cluster on Escape.
  useEffect(() => {
    if (!scene) return;
    const want = pendingFocus.current;
    if (want && elements.current.get(want)) {
      pendingFocus.current = null;
      setFocusId(want);
      elements.current.get(want)!.focus();
    } else if (!focusId || !scene.items.some((it) => it.id === focusId)) setFocusId(scene.items[0]?.id ?? null);
  }, [scene, focusId]);

  function open(id: string) {
    pendingFocus.current = null;
    setOpened({ id, view: null, error: null });
    performance.mark('loci-graph-cluster-open');
    client.call('graph.cluster', { id, by }).then(
      (view) => {
        pendingFocus.current = view.nodes.length ? [...view.nodes].sort((a, b) => b.weight - a.weight)[0]!.id : id;
        setOpened((o) => (o?.id === id ? { id, view, error: null } : o));
      },
      (error: unknown) => setOpened((o) => (o?.id === id ? { id, view: null, error } : o)),
    );
  }
  function close() {
    if (!opened) return;
    pendingFocus.current = opened.id;
    setOpened(null);
  }
  function activate(it: Item) {
    if (it.kind === 'note' && it.note?.docPath) onOpenNote({ docPath: it.note.docPath, docId: it.note.docId });
    else if (it.kind === 'cluster') open(it.id);
  }
  function onKey(e: KeyboardEvent<SVGGElement>, it: Item) {
    const list = scene?.items ?? [];
    const i = list.findIndex((x) => x.id === it.id);
    const move = (j: number) => {
      const next = list[(j + list.length) % list.length];
      if (!next) return;
      setFocusId(next.id);
      elements.current.get(next.id)?.focus();
    };
    if (e.key === 'Enter' || e.key === ' ') activate(it);
    else if (e.key === 'Escape' && opened) close();
    else if (e.key === 'ArrowRight' || e.key === 'ArrowDown') move(i + 1);
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') move(i - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(list.length - 1);
    else return;
    e.preventDefault();
    e.stopPropagation();
  }

  if (data && data.clusters.length === 0) {
    return (
      <EmptyState title="The graph is empty">
        <span>Index a notes folder in the Library: its folders appear here as clusters of notes.</span>
      </EmptyState>
    );
  }
  const shown = scene?.items.find((it) => it.id === hoverId) ?? scene?.items.find((it) => it.id === focusId && document.activeElement === elements.current.get(it.id));
  const maxWeight = Math.max(1, ...(scene?.lines.map((l) => l.weight) ?? []));
  return (
    <>
      <div className={`${ui.row} ${css.infoRow}`}>
        <span className={ui.muted} id="graph-overview-help" hidden={!!shown}>
          {opened ? 'Click a note to open its mind map, another cluster to open it; Escape goes back to all clusters.' : 'Click a cluster (or Tab to it and press Enter) to see its notes. Arrow keys move between clusters.'}
        </span>
        {shown && (
          <span data-testid="graph-tooltip" className={css.info}>
            <strong>{shown.name}</strong>{' '}
            <span className={ui.muted}>
              {shown.kind === 'cluster'
                ? `· ${shown.cluster!.notes.toLocaleString()} notes · ${shown.cluster!.innerLinks.toLocaleString()} links inside${shown.cluster!.topics.length ? ` · ${shown.cluster!.topics.join(', ')}` : ''}`
                : `· ${shown.note?.docPath} · ${shown.degree} link${shown.degree === 1 ? '' : 's'}`}
            </span>
          </span>
        )}
        {opened && (
          <Button size="small" onClick={close}>
            All clusters
          </Button>
        )}
      </div>
      <ErrorBox error={overview.error ?? opened?.error ?? null} />
      <div className={css.canvasWrap} ref={wrap}>
        {scene && size && (
          <svg
            width={size.w}
            height={size.h}
            className={css.overview}
            data-testid="graph-overview"
            data-open={openView ? openView.cluster.id : undefined}
            data-settled="true"
            role="group"
            aria-label={openView ? `Cluster ${openView.cluster.label}, opened: its notes and the other clusters` : `Library overview: ${data!.clusters.length} clusters`}
            aria-describedby="graph-overview-help"
          >
            <g aria-hidden="true">
              {scene.halo && <ellipse className={css.halo} cx={scene.halo.x} cy={scene.halo.y} rx={scene.halo.rx} ry={scene.halo.ry} />}
              {scene.lines.map((l, i) => (
                <line
                  key={i}
                  className={css.link}
                  x1={l.a.x}
                  y1={l.a.y}
                  x2={l.b.x}
                  y2={l.b.y}
                  strokeWidth={openView ? 0.8 : 1 + 6 * Math.sqrt(l.weight / maxWeight)}
                  strokeOpacity={openView ? 0.3 : 0.15 + 0.5 * Math.sqrt(l.weight / maxWeight)}
                />
              ))}
            </g>
            {scene.items.map((it) => (
              <g
                key={it.id}
                ref={(el) => {
                  if (el) elements.current.set(it.id, el);
                  else elements.current.delete(it.id);
                }}
                role="button"
                tabIndex={it.id === focusId ? 0 : -1}
                aria-label={it.kind === 'cluster' ? `${it.name}: ${it.cluster!.notes} notes${it.cluster!.topics.length ? `, about ${it.cluster!.topics.join(', ')}` : ''}. Open the cluster` : `${it.name} (${it.note?.docPath}). Open its mind map`}
                data-testid={it.kind === 'cluster' ? 'graph-cluster' : 'graph-note'}
                data-id={it.id}
                className={`${css.node} ${it.kind === 'cluster' ? css.clusterNode : css.noteNode}`}
                onClick={() => activate(it)}
                onKeyDown={(e) => onKey(e, it)}
                onFocus={() => setFocusId(it.id)}
                onMouseEnter={() => setHoverId(it.id)}
                onMouseLeave={() => setHoverId((h) => (h === it.id ? null : h))}
              >
                <circle cx={it.x} cy={it.y} r={it.r} style={it.color ? { fill: it.color } : undefined} />
                <circle className={css.ring} cx={it.x} cy={it.y} r={it.r + 4} />
              </g>
            ))}
            <g aria-hidden="true">
              {[...(scene.openedItem ? [scene.openedItem] : []), ...scene.items].map((it) => {
                const box = labels.get(it.id);
                if (!box) return null;
                const heading = it === scene.openedItem;
                const font = heading ? CLUSTER_FONT + 1 : it.kind === 'cluster' ? CLUSTER_FONT : NOTE_FONT;
                return (
                  <text
                    key={`${heading ? 'h' : 'l'}${it.id}`}
                    data-testid="graph-label"
                    className={`${css.label} ${it.kind === 'cluster' ? css.clusterLabel : ''} ${heading ? css.headingLabel : ''}`}
                    x={box.x + box.w / 2}
                    y={box.y + font}
                    fontSize={font}
                    textAnchor="middle"
                  >
                    {heading ? openView!.cluster.label : it.label}
                  </text>
                );
              })}
            </g>
          </svg>
        )}
        {(overview.loading || (opened && !openView && !opened.error)) && <div className={css.tooltip}>Loading graph…</div>}
      </div>
    </>
  );
}

function clip(text: string): string {
  return text.length > MAX_LABEL ? `${text.slice(0, MAX_LABEL - 1)}…` : text;
}

let measurer: CanvasRenderingContext2D | null = null;
/** A label's width as the page will draw it (the SVG text uses the same font). */
function textWidth(text: string, size: number, weight: number): number {
  measurer ??= document.createElement('canvas').getContext('2d');
  if (!measurer) return text.length * size * 0.6;
  measurer.font = `${weight} ${size}px ${FONT_FAMILY}`;
  return Math.ceil(measurer.measureText(text).width);
}
