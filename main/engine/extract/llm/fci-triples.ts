// Triples from the model's FCIs (prompt p2): each FCI is one self-contained statement with its subject
// spelled out, which is the input the sentence parser handles best, so the parser (wink-nlp for English,
// jieba tags for Chinese) turns the model's rewriting into KG triples without another model call.
import { hasHan, detectLang } from '../../text/lang.js';
import type { ExtractedEntity, ExtractedFci, ExtractedTriple, ParsedNote } from '../../types.js';
import { chineseTriples } from '../fast/chinese.js';
import { ExtractionCollector } from '../fast/collector.js';
import { analyseSentence } from '../fast/english.js';

export function triplesFromFcis(note: ParsedNote, fcis: ExtractedFci[]): { triples: ExtractedTriple[]; entities: ExtractedEntity[] } {
  const out = new ExtractionCollector(note);
  const knownNames = [note.title, ...note.links.map((l) => l.target)].filter(Boolean);
  for (const fci of fcis) {
    const zh = hasHan(fci.text) && detectLang(fci.text) === 'zh';
    const triples = zh ? chineseTriples(fci.text) : analyseSentence(fci.text, { knownNames }).triples;
    for (const t of triples) out.triple(t.subject, t.relation, t.object, fci.chunkOrd, fci.lineFrom, fci.lineTo);
  }
  return { triples: out.triples, entities: out.entities };
}
