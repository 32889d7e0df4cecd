import * as d3 from 'd3';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { Res } from '../../../main/contract/contract.js';
import { Badge, Button, EmptyState, ErrorBox, ui } from '../components/ui.js';
import { useApp, type NoteRef } from '../lib/app-context.js';
import { lineRange } from '../lib/format.js';
import { useCall } from '../lib/use-call.js';
import views from './views.module.css';
import css from './MindMap.module.css';

type MmNode = NonNullable<Res<'notes.mindMap'>>;

const ROW = 26;
const COL = 230;
const LABEL = 30;

export function MindMapView() {
  const { mindMapDoc, openSwitcher, indexVersion } = useApp();
  const docs = useCall('library.documents', {}, [indexVersion]);
  const indexed = (docs.data ?? []).filter((d) => d.status === 'indexed');
  const first = indexed[0];
  const note = mindMapDoc ?? (first ? { docPath: first.relPath, docId: first.id } : null);
  const docPath = note?.docPath ?? null;
  const selectedId = note?.docId ?? indexed.find((d) => d.relPath === docPath)?.id;
  const current = indexed.find((d) => d.id === selectedId);
  const map = useCall('notes.mindMap', note ? { docPath: note.docPath, docId: note.docId } : null, [indexVersion]);
  const [query, setQuery] = useState('');

  return (
    <section className={views.view} aria-labelledby="mm-title">
      <div className={views.header}>
        <h1 id="mm-title" className={ui.heading}>
          Mind map
        </h1>
        <span className={ui.row}>
          <Button onClick={() => openSwitcher('mindmap')} disabled={!indexed.length} aria-keyshortcuts="Control+K" data-testid="mm-pick">
            {current ? current.title : 'Choose a note'} <span className={ui.muted}>(change…)</span>
          </Button>
          <input className={ui.input} type="search" placeholder="Search this map" aria-label="Search this mind map" value={query} onChange={(e) => setQuery(e.target.value)} />
        </span>
      </div>
      <ErrorBox error={docs.error ?? map.error} />
      {!docs.loading && indexed.length === 0 && (
        <EmptyState title="No mind maps yet">
          <span>Add a notes folder in the Library; every indexed note gets a mind map.</span>
        </EmptyState>
      )}
      {docPath && map.data === null && !map.loading && !map.error && <EmptyState title="This note has no mind map" />}
      {map.data && note && <MindMapTree key={`${note.docId ?? ''}:${note.docPath}`} root={map.data} note={note} query={query} />}
    </section>
  );
}

function MindMapTree({ root, note, query }: { root: MmNode; note: NoteRef; query: string }) {
  const { docPath } = note;
  const { openNote, openMindMap } = useApp();
  const svgRef = useRef<SVGSVGElement>(null);
  const gRef = useRef<SVGGElement>(null);
  const zoomRef = useRef<d3.ZoomBehavior<SVGSVGElement, unknown> | null>(null);
  const [expanded, setExpanded] = useState<Set<number>>(() => initialExpanded(root));
  const [selected, setSelected] = useState<MmNode>(root);

  const q = query.trim().toLowerCase();
  const matches = useMemo(() => {
    const found = new Set<number>();
    if (q) d3.hierarchy(root).each((n) => n.data.text.toLowerCase().includes(q) && found.add(n.data.id));
    return found;
  }, [root, q]);

  // Searching opens the branches that lead to matches.
  useEffect(() => {
    if (!matches.size) return;
    setExpanded((prev) => {
      const next = new Set(prev);
      d3.hierarchy(root).each((n) => {
        if (matches.has(n.data.id)) for (const a of n.ancestors().slice(1)) next.add(a.data.id);
      });
      return next;
    });
  }, [matches, root]);

  const layout = useMemo(() => {
    const h = d3.hierarchy(root, (n) => (expanded.has(n.id) ? n.children : null));
    return d3.tree<MmNode>().nodeSize([ROW, COL])(h);
  }, [root, expanded]);

  useEffect(() => {
    const svg = d3.select(svgRef.current!);
    const zoom = d3
      .zoom<SVGSVGElement, unknown>()
      .scaleExtent([0.2, 3])
      .on('zoom', (e) => gRef.current?.setAttribute('transform', e.transform.toString()));
    zoomRef.current = zoom;
    svg.call(zoom).on('dblclick.zoom', null);
    fit(false);
    return () => void svg.on('.zoom', null);
  }, []);

  /** Zooms so the whole visible tree fits the canvas (never above 100%; on first show, never so far
   * out that labels become unreadable — the canvas may still be narrow while a note panel closes). */
  function fit(animate = true, minScale = animate ? 0.2 : 0.8) {
    const svg = svgRef.current;
    const g = gRef.current;
    if (!svg || !g || !zoomRef.current) return;
    const box = g.getBBox();
    const width = svg.clientWidth || 800;
    const height = svg.clientHeight || 500;
    const k = Math.max(minScale, Math.min(1, (width - 40) / Math.max(1, box.width), (height - 40) / Math.max(1, box.height)));
    const t = d3.zoomIdentity.translate(20 - box.x * k + Math.max(0, (width - 40 - box.width * k) / 2), height / 2 - (box.y + box.height / 2) * k).scale(k);
    const sel = d3.select(svg);
    if (animate) sel.transition().duration(200).call(zoomRef.current.transform, t);
    else sel.call(zoomRef.current.transform, t);
  }

  const toggle = (n: MmNode) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(n.id)) next.delete(n.id);
      else next.add(n.id);
      return next;
    });

  const onKey = (e: KeyboardEvent, n: d3.HierarchyPointNode<MmNode>) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      setSelected(n.data);
      if (n.data.children.length) toggle(n.data);
    } else if (e.key === 'ArrowRight' && n.data.children.length && !expanded.has(n.data.id)) {
      toggle(n.data);
    } else if (e.key === 'ArrowLeft' && expanded.has(n.data.id)) {
      toggle(n.data);
    }
  };

  const zoomBy = (k: number) => zoomRef.current && d3.select(svgRef.current!).transition().duration(150).call(zoomRef.current.scaleBy, k);

  return (
    <div className={css.layout}>
      <div className={css.canvas}>
        <svg ref={svgRef} role="tree" aria-label={`Mind map of ${docPath}`} data-testid="mindmap">
          <g ref={gRef}>
            {layout.links().map((l) => (
              <path key={`${l.source.data.id}-${l.target.data.id}`} className={css.link} d={d3.linkHorizontal<unknown, d3.HierarchyPointNode<MmNode>>().x((p) => p.y).y((p) => p.x)(l) ?? ''} />
            ))}
            {layout.descendants().map((n) => {
              const hasKids = n.data.children.length > 0;
              const isOpen = expanded.has(n.data.id);
              const cls = [css.node, css[n.data.kind], hasKids && !isOpen && css.collapsed, matches.has(n.data.id) && css.match, selected.id === n.data.id && css.selected].filter(Boolean).join(' ');
              return (
                <g
                  key={n.data.id}
                  className={cls}
                  transform={`translate(${n.y},${n.x})`}
                  tabIndex={0}
                  role="treeitem"
                  aria-expanded={hasKids ? isOpen : undefined}
                  aria-selected={selected.id === n.data.id}
                  aria-label={n.data.text}
                  data-testid="mm-node"
                  data-kind={n.data.kind}
                  data-match={matches.has(n.data.id) || undefined}
                  onClick={() => {
                    setSelected(n.data);
                    if (hasKids) toggle(n.data);
                  }}
                  onKeyDown={(e) => onKey(e, n)}
                >
                  <circle r={n.data.kind === 'topic' ? 8 : 6} />
                  <text x={hasKids && isOpen ? -12 : 12} dy="0.32em" textAnchor={hasKids && isOpen ? 'end' : 'start'}>
                    {truncate(n.data.text)}
                    {hasKids && !isOpen ? ` (+${n.data.children.length})` : ''}
                  </text>
                  <title>{n.data.text}</title>
                </g>
              );
            })}
          </g>
        </svg>
        <div className={css.zoomControls}>
          <Button size="small" onClick={() => zoomBy(1.25)} aria-label="Zoom in">
            +
          </Button>
          <Button size="small" onClick={() => zoomBy(0.8)} aria-label="Zoom out">
            −
          </Button>
          <Button size="small" onClick={() => fit(true)} aria-label="Fit the map to the view">
            Fit
          </Button>
        </div>
      </div>
      <aside className={`${ui.panel} ${ui.stack} ${css.details}`} aria-label="Selected node" data-testid="mm-details">
        <span className={ui.row}>
          <Badge>{selected.kind}</Badge>
          <span className={ui.muted}>{selected.extractor}</span>
        </span>
        <p className={css.nodeText}>{selected.text}</p>
        {selected.lineFrom !== null && (
          <Button size="small" onClick={() => openNote({ ...note, lineFrom: selected.lineFrom, lineTo: selected.lineTo })}>
            Source: {lineRange(selected.lineFrom, selected.lineTo)}
          </Button>
        )}
        {selected.related.length > 0 && (
          <>
            <span className={ui.muted}>Also in other notes (super-{selected.related[0]!.superKind}s)</span>
            <ul className={css.related}>
              {selected.related.map((r) => (
                <li key={`${r.superId}-${r.nodeId}`}>
                  <button type="button" className={views.linkButton} onClick={() => openMindMap({ docPath: r.docPath, docId: r.docId })} title={`similarity ${r.sim.toFixed(2)}`}>
                    {r.text}
                  </button>{' '}
                  <span className={ui.muted}>{r.docPath}</span>
                </li>
              ))}
            </ul>
          </>
        )}
        <span className={ui.muted}>Click a node to select it and fold or unfold its branch; drag to pan, wheel to zoom. Keyboard: Tab, Enter, ←/→.</span>
      </aside>
    </div>
  );
}

function initialExpanded(root: MmNode): Set<number> {
  const open = new Set<number>();
  d3.hierarchy(root).each((n) => {
    if (n.depth < 1) open.add(n.data.id);
  });
  return open;
}

function truncate(text: string): string {
  return text.length > LABEL ? `${text.slice(0, LABEL - 1)}…` : text;
}
