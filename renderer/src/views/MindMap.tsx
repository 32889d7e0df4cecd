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
      {map.data && note && <MindMapTree key={`${note.docId ?? ''}:${note.docPath}:${map.data.id}`} root={map.data} note={note} query={query} />}
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
  const nodeRefs = useRef(new Map<number, SVGGElement>());

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
    // The canvas changes size when a note opens or closes beside it: fit the map again, or it sits off-centre.
    let width = svgRef.current!.clientWidth;
    const resized = new ResizeObserver(() => {
      const now = svgRef.current?.clientWidth ?? width;
      if (Math.abs(now - width) > 40) fit(false);
      width = now;
    });
    resized.observe(svgRef.current!);
    return () => {
      resized.disconnect();
      svg.on('.zoom', null);
    };
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

  // Visible nodes top to bottom, as the tree reads: ↑/↓ walk this order (WAI-ARIA tree pattern).
  const order = useMemo(() => {
    const out: d3.HierarchyPointNode<MmNode>[] = [];
    layout.eachBefore((n) => void out.push(n));
    return out;
  }, [layout]);
  // One tab stop in the tree: the selected node, or the root when its branch was folded away.
  const tabStop = order.some((n) => n.data.id === selected.id) ? selected.id : root.id;

  /** Moves focus (and the selection) to a node, panning it into view when it is off the canvas. */
  const focusNode = (n: d3.HierarchyPointNode<MmNode>) => {
    setSelected(n.data);
    nodeRefs.current.get(n.data.id)?.focus({ preventScroll: true });
    const svg = svgRef.current;
    if (!svg || !zoomRef.current) return;
    const t = d3.zoomTransform(svg);
    const [x, y] = t.apply([n.y, n.x]);
    if (x < 40 || y < 20 || x > svg.clientWidth - 160 || y > svg.clientHeight - 20) d3.select(svg).transition().duration(150).call(zoomRef.current.translateTo, n.y + 60, n.x);
  };

  const onKey = (e: KeyboardEvent, n: d3.HierarchyPointNode<MmNode>) => {
    const at = order.indexOf(n);
    const hasKids = n.data.children.length > 0;
    const open = expanded.has(n.data.id);
    let handled = true;
    if (e.key === 'Enter' || e.key === ' ') {
      setSelected(n.data);
      if (hasKids) toggle(n.data);
    } else if (e.key === 'ArrowDown') {
      if (order[at + 1]) focusNode(order[at + 1]!);
    } else if (e.key === 'ArrowUp') {
      if (at > 0) focusNode(order[at - 1]!);
    } else if (e.key === 'Home') {
      focusNode(order[0]!);
    } else if (e.key === 'End') {
      focusNode(order[order.length - 1]!);
    } else if (e.key === 'ArrowRight') {
      if (hasKids && !open) toggle(n.data);
      else if (n.children?.[0]) focusNode(n.children[0]);
    } else if (e.key === 'ArrowLeft') {
      if (hasKids && open) toggle(n.data);
      else if (n.parent) focusNode(n.parent);
    } else handled = false;
    if (handled) e.preventDefault();
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
                  ref={(el) => void (el ? nodeRefs.current.set(n.data.id, el) : nodeRefs.current.delete(n.data.id))}
                  tabIndex={tabStop === n.data.id ? 0 : -1}
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
                  onFocus={() => selected.id !== n.data.id && setSelected(n.data)}
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
        <span className={ui.muted}>Click a node to select it and fold or unfold its branch; drag to pan, wheel to zoom. Keyboard: Tab to the map, ↑/↓ to move, ←/→ to fold or unfold, Enter to select.</span>
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
