// The model pass's check for facts that reverse their note (extract/llm/meaning-flips.ts), run over an
// index that is already built: every English fact is judged against its note's sentences, and the facts
// the check flags are printed with the sentence they reverse, then counted per extractor. Run it on an
// index a model pass wrote before the check existed to see what it drops, or on a fast-mode index (its
// facts are the notes' own sentences, so every flag there is a false one).
//   npx tsx scripts/judge-reversed-facts.ts <index.db>
import { openDb } from '../main/engine/store/db.js';
import { documentStates } from '../main/engine/store/library.js';
import { loadParsedNote } from '../main/engine/store/documents.js';
import { factsOf } from '../main/engine/store/retrieval.js';
import { meaningFlips } from '../main/engine/extract/llm/meaning-flips.js';
import { restatableSentences } from '../main/engine/extract/llm/piece-facts.js';

const file = process.argv[2];
if (!file) {
  console.error('usage: npx tsx scripts/judge-reversed-facts.ts <index.db>');
  process.exit(2);
}
const db = openDb(file, { readonly: true });
const counts = new Map<string, { flagged: number; facts: number }>();
for (const note of documentStates(db)) {
  if (note.status !== 'indexed' || note.lang !== 'en') continue;
  const parsed = loadParsedNote(db, note.id);
  const judge = meaningFlips(parsed.chunks.filter((c) => !c.isCode).flatMap((c) => restatableSentences(c.text)));
  const extractor = note.modelExtractor ?? 'fast';
  const count = counts.get(extractor) ?? { flagged: 0, facts: 0 };
  counts.set(extractor, count);
  for (const fact of factsOf(db, [note.id])) {
    count.facts++;
    const flip = judge(fact.text);
    if (!flip) continue;
    count.flagged++;
    console.log(`${note.relPath}:${fact.line_from} [${extractor}]\n  fact:     ${fact.text}\n  reverses: ${flip.restates}\n  flips:    ${flip.flips.join(', ')}`);
  }
}
for (const [extractor, c] of counts) console.log(`${extractor}: ${c.flagged} of ${c.facts} facts flagged`);
db.close();
