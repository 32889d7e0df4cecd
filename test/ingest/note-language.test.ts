import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNote } from '../../main/engine/ingest/parse.js';
import { noteLanguage, proseOf } from '../../main/engine/ingest/note-language.js';
import { loadCrud } from '../../main/bench/crud.js';
import { loadDataset } from '../../main/bench/datasets.js';
import { available, CRUD_NEWS, FOAM, SHARED_DATA, SILVERBULLET } from '../fixtures/paths.js';

// A note's language as parsing records it, on real notes and real third-party text: English docs
// folders, Chinese news, Wikipedia paragraphs. (Their words are read here, never copied.)
function markdownUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md') && statSync(join(root, f)).isFile());
}

/** A note's language as indexing judges it: by the prose of its parsed chunks. */
const languageOf = (relPath: string, text: string) => noteLanguage(proseOf(parseNote(relPath, text).chunks));

async function languagesOf(notes: { relPath: string; text: string }[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const n of notes) {
    const lang = await languageOf(n.relPath, n.text);
    counts[lang] = (counts[lang] ?? 0) + 1;
  }
  return counts;
}

describe('a note’s language', () => {
  it('tells languages that share a script apart, and says when it cannot tell', async () => {
    expect(await noteLanguage(['Der Gründer der Rösterei wurde in Tromsø geboren und zog später nach Berlin.'])).toBe('de');
    expect(await noteLanguage(['The founder of the roastery was born in Tromsø and later moved to Berlin.'])).toBe('en');
    expect(await noteLanguage(['乌龙茶是半发酵茶，产于福建和台湾。'])).toBe('zh');
    expect(await noteLanguage([])).toBe('und');
    expect(await noteLanguage(['ok'])).toBe('und');
  });

  it('is told by the prose, not by the code in a note', async () => {
    const lang = await languageOf('setup.md', '# Einrichtung\n\nDiese Anleitung beschreibt, wie man den Server auf einem neuen Rechner einrichtet und startet.\n\n```js\nconst server = createServer(function handle(request, response) { return response.end("hello world"); });\nserver.listen(8080);\n```\n');
    expect(lang).toBe('de');
  });

  it.runIf(available(SILVERBULLET) && available(FOAM))('finds the English docs folders English', async () => {
    for (const root of [SILVERBULLET, FOAM]) {
      const files = markdownUnder(root);
      const counts = await languagesOf(files.map((f) => ({ relPath: f, text: readFileSync(join(root, f), 'utf8') })));
      // A page of code or a few words may be undetermined; none is judged another language.
      expect(counts.en).toBeGreaterThanOrEqual(files.length * 0.97);
      expect(Object.keys(counts).filter((l) => l !== 'en' && l !== 'und')).toEqual([]);
    }
  });

  it.runIf(available(CRUD_NEWS) && available(join(SHARED_DATA, 'hotpotqa/dev_distractor_10.jsonl')))('finds Chinese news Chinese and Wikipedia paragraphs English', async () => {
    const { sets } = loadCrud([join(SHARED_DATA, 'crud/questions_1doc_dev.json')], { corpus: CRUD_NEWS, pool: 300 });
    const news = sets[0]!.corpus.map((p) => ({ relPath: `${p.title}.md`, text: p.text }));
    // An article may quote English at length; it is then judged by its longer part.
    expect((await languagesOf(news)).zh).toBeGreaterThanOrEqual(news.length * 0.98);
    const wiki = loadDataset(join(SHARED_DATA, 'hotpotqa/dev_distractor_10.jsonl'), { format: 'hotpotqa' }).corpus.map((p) => ({ relPath: `${p.title}.md`, text: p.text }));
    const counts = await languagesOf(wiki);
    expect(counts.en).toBeGreaterThanOrEqual(wiki.length * 0.97);
  });
});
