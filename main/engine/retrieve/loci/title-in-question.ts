// A note whose full title the question names gains a bonus, scaled by how specific the title is (a
// title many notes mention says little); see docs/tuning.md (title evidence).
import type { QueryAnalysis } from '../query.js';
import type { LociParams } from '../loci-params.js';
import type { LociDocuments } from './documents.js';
import { matchWord, specificEnough, titleSpecificity, type TitleMentions } from '../../graph/walk/title-mentions.js';
import { namedTitles } from './title-evidence.js';

export function creditNamedTitles(docs: LociDocuments, qa: QueryAnalysis, mentions: TitleMentions, p: LociParams, rankOneScore: number): void {
  if (!p.wTitleExact) return;
  for (const gram of namedTitles(qa.words.map(matchWord), p.maxTitleWords, (g) => mentions.byTitle.has(g) && specificEnough(g))) {
    for (const id of mentions.byTitle.get(gram)!) {
      const d = docs.entry(id);
      if (d.titleInQuestion) continue;
      d.titleInQuestion = true;
      d.score += p.wTitleExact * titleSpecificity(mentions, d.title) ** p.specificityPower * rankOneScore;
    }
  }
}
