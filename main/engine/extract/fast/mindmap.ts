import type { ExtractedFci, MindMapNode, ParsedNote } from '../../types.js';
import { isOpaqueName } from '../../text/opaque-name.js';
import type { SentenceSplit } from './sentences.js';

/** Routes and untitled topics are named by the start of their text, cut to this many characters. */
const LABEL_CHARS = 60;
const TOPIC_CHARS = 120;

/**
 * Fast-mode mind map, following the note's own structure: the topic, each heading level a nested route,
 * then inside a section its paragraphs and list items — a paragraph of several sentences, a lead-in
 * ending in a colon and a list item with nested items become routes named by their opening words — and
 * each FCI a fact at the bottom. Routes with no facts below them are left out, and every route spans the
 * lines of its facts.
 */
export function buildMindMap(note: ParsedNote, split: SentenceSplit): MindMapNode {
  const { fcis, passages, passageOf } = split;
  const topic: MindMapNode = { kind: 'topic', text: mindMapTopic(note, fcis), children: [] };
  const chunkByOrd = new Map(note.chunks.map((c) => [c.ord, c]));

  // Sections: the heading route a chunk's facts hang under (created when its first fact arrives).
  const sectionOf = (chunkOrd: number): MindMapNode => {
    let parent = topic;
    for (const heading of chunkByOrd.get(chunkOrd)?.headingPath ?? []) {
      let route = parent.children.find((n) => n.kind === 'route' && n.text === heading);
      if (!route) {
        route = { kind: 'route', text: heading, children: [] };
        parent.children.push(route);
      }
      parent = route;
    }
    return parent;
  };
  const sectionKey = (chunkOrd: number) => (chunkByOrd.get(chunkOrd)?.headingPath ?? []).join('\u0000');

  // Pass 1: each passage's structural parent — the item it is nested in, or the lead-in paragraph
  // ("The kit:") a list follows — or -1 for the section itself.
  const parentOf: number[] = [];
  let items: { indent: number; p: number }[] = [];
  let leadIn = -1;
  let lastSection: string | null = null;
  passages.forEach((passage, p) => {
    const key = sectionKey(passage.chunkOrd);
    if (key !== lastSection) {
      items = [];
      leadIn = -1;
      lastSection = key;
    }
    if (passage.itemIndent === null) {
      items = [];
      leadIn = /[:：]\s*$/.test(passage.text) ? p : -1;
      parentOf.push(-1);
      return;
    }
    const indent = passage.itemIndent;
    while (items.length && items[items.length - 1]!.indent >= indent) items.pop();
    parentOf.push(items[items.length - 1]?.p ?? leadIn);
    items.push({ indent, p });
  });

  // Pass 2: which passages become routes — those with facts nested under them, and those of several
  // sentences unless the passage is all its section holds (the section already names it).
  const ownFacts = passages.map(() => 0);
  for (const p of passageOf) ownFacts[p]!++;
  const treeFacts = [...ownFacts];
  for (let p = passages.length - 1; p >= 0; p--) {
    const parent = parentOf[p]!;
    if (parent >= 0) treeFacts[parent]! += treeFacts[p]!;
  }
  const passagesWithFacts = new Map<string, number>();
  passages.forEach((passage, p) => {
    if (ownFacts[p]! > 0) passagesWithFacts.set(sectionKey(passage.chunkOrd), (passagesWithFacts.get(sectionKey(passage.chunkOrd)) ?? 0) + 1);
  });
  const isRoute = passages.map(
    (passage, p) => treeFacts[p]! > ownFacts[p]! || (ownFacts[p]! >= 2 && (passagesWithFacts.get(sectionKey(passage.chunkOrd)) ?? 0) > 1),
  );

  // Routes are made when their first fact arrives, so none is ever empty.
  const routeOf = new Map<number, MindMapNode>();
  const containerOf = (p: number): MindMapNode => {
    if (p < 0) return topic;
    const parent = parentOf[p]!;
    const outer = parent >= 0 ? containerOf(parent) : sectionOf(passages[p]!.chunkOrd);
    if (!isRoute[p]) return outer;
    let route = routeOf.get(p);
    if (!route) {
      route = { kind: 'route', text: routeLabel(passages[p]!.text), children: [] };
      outer.children.push(route);
      routeOf.set(p, route);
    }
    return route;
  };

  fcis.forEach((fci, i) => {
    containerOf(passageOf[i]!).children.push({ kind: 'fact', text: fci.text, fciIndex: i, lineFrom: fci.lineFrom, lineTo: fci.lineTo, children: [] });
  });

  spanLines(topic);
  return topic;
}

/**
 * The note's title, unless the title is opaque (an id, a date, a number, a hash): then the first heading,
 * else the first sentence, so the topic says what the note is about.
 */
export function mindMapTopic(note: ParsedNote, fcis: ExtractedFci[]): string {
  if (!isOpaqueName(note.title)) return note.title;
  const heading = note.chunks.find((c) => c.headingPath.length > 0)?.headingPath[0];
  if (heading && !isOpaqueName(heading)) return heading;
  const first = fcis[0]?.text;
  return first ? cut(first, TOPIC_CHARS) : note.title;
}

/** A passage's first sentence when it is short enough, else its opening words. */
function routeLabel(text: string): string {
  const firstSentence = /^.*?[.!?。！？](?=\s|$)/u.exec(text)?.[0];
  const label = firstSentence && firstSentence.length <= LABEL_CHARS ? firstSentence : text;
  return cut(label.replace(/[:：]\s*$/, ''), LABEL_CHARS);
}

/** The first `max` characters, cut at a word end for spaced scripts, with an ellipsis when cut. */
function cut(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  const head = t.slice(0, max);
  const space = head.lastIndexOf(' ');
  return `${(space > max / 2 ? head.slice(0, space) : head).replace(/[\s,;，、]+$/, '')}…`;
}

function spanLines(node: MindMapNode): void {
  for (const child of node.children) {
    if (child.kind !== 'fact') spanLines(child);
    if (child.lineFrom === undefined || child.lineTo === undefined) continue;
    node.lineFrom = Math.min(node.lineFrom ?? child.lineFrom, child.lineFrom);
    node.lineTo = Math.max(node.lineTo ?? child.lineTo, child.lineTo);
  }
}
