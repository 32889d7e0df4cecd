import type { ExtractedFci, MindMapNode, ParsedNote } from '../../types.js';

/**
 * Fast-mode mind map: the title is the topic, each heading level a nested route, each FCI a fact
 * under the route of its chunk (directly under the topic when the chunk has no heading). Routes with no
 * facts below them are left out, and every route spans the lines of its facts.
 */
export function buildMindMap(note: ParsedNote, fcis: ExtractedFci[]): MindMapNode {
  const topic: MindMapNode = { kind: 'topic', text: note.title, children: [] };
  const chunkByOrd = new Map(note.chunks.map((c) => [c.ord, c]));

  fcis.forEach((fci, fciIndex) => {
    let parent = topic;
    for (const heading of chunkByOrd.get(fci.chunkOrd)?.headingPath ?? []) {
      let route = parent.children.find((n) => n.kind === 'route' && n.text === heading);
      if (!route) {
        route = { kind: 'route', text: heading, children: [] };
        parent.children.push(route);
      }
      parent = route;
    }
    parent.children.push({ kind: 'fact', text: fci.text, fciIndex, lineFrom: fci.lineFrom, lineTo: fci.lineTo, children: [] });
  });

  spanLines(topic);
  return topic;
}

function spanLines(node: MindMapNode): void {
  for (const child of node.children) {
    if (child.kind !== 'fact') spanLines(child);
    if (child.lineFrom === undefined || child.lineTo === undefined) continue;
    node.lineFrom = Math.min(node.lineFrom ?? child.lineFrom, child.lineFrom);
    node.lineTo = Math.max(node.lineTo ?? child.lineTo, child.lineTo);
  }
}
