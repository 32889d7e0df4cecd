// A notes library of any size built only from text in the repo (the sample notes and the test
// fixtures), deterministic for a given count, so the UI journeys and the scale spec run on a fresh clone.
// Each generated note is one source note's sections, a section borrowed from another note, front-matter
// tags, and [[wikilinks]] to other generated notes; folders by topic and season (20 to 80 notes each), so
// folder clusters mean something. The sources themselves are copied verbatim too (edge cases: CRLF, malformed front matter).
//   npx tsx scripts/generate-library.ts <out-folder> [--notes 2000]
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const REPO = path.resolve(import.meta.dirname, '..');
/** Source folders, relative to the repo, and the folder name their verbatim copy gets in the library. */
const SOURCES: [string, string][] = [
  ['resources/sample-notes', 'sample-notes'],
  ['test/fixtures/notes', 'fixtures/notes'],
  ['test/fixtures/structure-notes', 'fixtures/structure-notes'],
  ['test/fixtures/llm/notes', 'fixtures/llm'],
  ['test/fixtures/llm/long', 'fixtures/long'],
];
const NOTE = /\.(md|markdown|txt)$/i;
/** Words that give generated notes distinct titles and tags (a notebook kept over seasons and places). */
const SEASONS = ['spring', 'summer', 'autumn', 'winter'];
const PLACES = ['kitchen', 'studio', 'garden', 'harbour', 'market', 'library', 'workshop', 'station'];

interface Source {
  rel: string;
  title: string;
  topic: string;
  tags: string[];
  intro: string;
  sections: string[];
}

export interface GeneratedLibrary {
  dir: string;
  /** Notes written in all (verbatim sources included). */
  notes: number;
  generated: number;
  /** Generated titles, in order: the first of each topic is a stable note to open in tests. */
  titles: string[];
}

/** Writes the library into `dir` (created when missing) and says what it wrote. */
export function generateLibrary(dir: string, target = 2000): GeneratedLibrary {
  mkdirSync(dir, { recursive: true });
  const sources = readSources();
  let notes = 0;
  for (const [from, to] of SOURCES) {
    cpSync(path.join(REPO, from), path.join(dir, to), { recursive: true, filter: (p) => !/\.(gguf|gitattributes)$/.test(p) });
    notes += listNotes(path.join(REPO, from)).length;
  }
  const rand = mulberry32(41);
  const count = Math.max(0, target - notes);
  const titles = Array.from({ length: count }, (_, i) => titleFor(sources[i % sources.length]!, i));
  for (let i = 0; i < count; i++) {
    const src = sources[i % sources.length]!;
    const other = sources[Math.floor(rand() * sources.length)]!;
    const season = SEASONS[i % SEASONS.length]!;
    const folder = path.join(dir, 'notebook', src.topic, season);
    mkdirSync(folder, { recursive: true });
    const links = [titles[(i + 1) % count]!, titles[Math.floor(rand() * count)]!, src.title];
    const place = PLACES[Math.floor(rand() * PLACES.length)]!;
    const tags = [...new Set([...src.tags, season, place])];
    // The links sit in the intro's paragraph: a section of bare link lists would outrank the notes' text in search.
    const body = [
      `---\ntitle: ${titles[i]}\ntags: [${tags.join(', ')}]\n---`,
      `# ${titles[i]}`,
      `${src.intro}\nWritten in the ${place}, ${season} entry ${i + 1}; it follows [[${links[0]}]], compare [[${links[1]}]] and [[${links[2]}]]. #${src.topic}`,
      ...src.sections,
      other === src ? '' : other.sections[Math.floor(rand() * other.sections.length)] ?? '',
    ].filter(Boolean);
    writeFileSync(path.join(folder, `${fileName(titles[i]!)}.md`), `${body.join('\n\n')}\n`);
  }
  return { dir, notes: notes + count, generated: count, titles };
}

function titleFor(src: Source, i: number): string {
  return `${src.title} ${String(i + 1).padStart(4, '0')}`;
}

function fileName(title: string): string {
  return title.replace(/[\\/:*?"<>|]/g, '-');
}

function readSources(): Source[] {
  const out: Source[] = [];
  for (const [from, to] of SOURCES) {
    for (const rel of listNotes(path.join(REPO, from))) {
      const text = readFileSync(path.join(REPO, from, rel), 'utf8').replace(/\r\n/g, '\n');
      const fm = /^---\n([\s\S]*?)\n---\n/.exec(text);
      const tags = fm ? (/^tags:\s*\[([^\]]*)\]/m.exec(fm[1]!)?.[1] ?? '').split(',').map((t) => t.trim()).filter(Boolean) : [];
      const body = fm ? text.slice(fm[0].length) : text;
      const h1 = /^# (.+)$/m.exec(body)?.[1]?.trim();
      const fmTitle = fm ? /^title:\s*(.+)$/m.exec(fm[1]!)?.[1]?.trim() : undefined;
      const title = (fmTitle ?? h1 ?? path.basename(rel).replace(NOTE, '')).replace(/[[\]#|^]/g, '');
      // Sections from the second-level headings on; what comes before them is the intro.
      const rest = body.replace(/^# .+\n/m, '');
      const parts = rest.split(/\n(?=## )/);
      const intro = parts[0]!.startsWith('## ') ? '' : parts.shift()!.trim();
      const sections = parts.map((s) => s.trim()).filter(Boolean);
      if (!sections.length && !intro) continue;
      const dirTopic = path.dirname(rel) === '.' ? to.split('/').pop()! : path.dirname(rel).split(path.sep)[0]!;
      out.push({ rel, title, topic: dirTopic.toLowerCase().replace(/[^a-z0-9-]+/g, '-'), tags, intro: intro || title, sections: sections.length ? sections : [`## Notes\n${intro}`] });
    }
  }
  return out;
}

function listNotes(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[]).filter((f) => NOTE.test(f)).sort();
}

/** A small seeded PRNG: the same count always gives the same library. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--notes');
  const target = at >= 0 ? Number(args[at + 1]) : 2000;
  const out = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--notes') ?? mkdtempSync(path.join(os.tmpdir(), 'loci-library-'));
  const outDir = path.resolve(out);
  if (outDir === REPO || outDir.startsWith(REPO + path.sep)) {
    console.error('generate-library: write outside the repository (the library is never committed)');
    process.exit(2);
  }
  const lib = generateLibrary(outDir, target);
  console.log(`${lib.notes} notes (${lib.generated} generated) in ${lib.dir}`);
}
