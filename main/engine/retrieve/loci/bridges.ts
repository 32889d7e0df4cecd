// Second hop: the best first-hop notes, and the notes the question names, lend part of their score to
// the notes they mention (HippoRAG's bridge entity); weights and their history in docs/tuning.md.
import type { LociParams } from '../loci-params.js';
import type { LociDocuments } from './documents.js';
import { titleSpecificity, type TitleMentions } from '../../graph/walk/title-mentions.js';

/** `anchorWeight`: what a note the question names lends (set by how far the corpus's titles are names). */
export function addBridges(docs: LociDocuments, mentions: TitleMentions, p: LociParams, anchorWeight: number): void {
  if (!p.wBridge || p.bridgeParents <= 0) return;
  const all = docs.all();
  const top = [...all].sort((a, b) => b.score - a.score).slice(0, p.bridgeParents);
  const parents = [...new Set([...top, ...all.filter((d) => d.titleInQuestion && anchorWeight > 0)])];
  const bonus = new Map<number, number>();
  for (const parent of parents) {
    const w = parent.titleInQuestion ? anchorWeight : p.wBridge;
    const mentioned = mentions.byDoc.get(parent.docId) ?? [];
    const split = mentioned.length ** p.bridgeSplitPower;
    for (const { docId: target, key } of mentioned) {
      const d = docs.entry(target);
      d.bridgedFrom.push({ docId: parent.docId, title: parent.title, mention: key });
      const b = (w * titleSpecificity(mentions, d.title) ** p.specificityPower * parent.score) / split;
      bonus.set(target, Math.max(bonus.get(target) ?? 0, b));
    }
  }
  for (const [target, b] of bonus) docs.byId.get(target)!.score += b;
}
