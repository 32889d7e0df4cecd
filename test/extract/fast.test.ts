import { beforeAll, describe, expect, it } from 'vitest';
import { extractFast } from '../../main/engine/extract/fast/index.js';
import { mindMapTopic } from '../../main/engine/extract/fast/mindmap.js';
import { parseNote } from '../../main/engine/ingest/parse.js';
import { readNote } from '../../main/engine/ingest/read.js';
import { scanFolder } from '../../main/engine/ingest/scan.js';
import { detectLang } from '../../main/engine/text/lang.js';
import type { Extraction, MindMapNode, ParsedNote } from '../../main/engine/types.js';
import { readNewsArticles } from '../fixtures/crud-news.js';
import { citedLines, loadFolder } from '../fixtures/notes-loader.js';
import { available, CRUD_NEWS, FIXTURE_NOTES, FOAM, SAMPLE_NOTES, SILVERBULLET, STRUCTURE_NOTES } from '../fixtures/paths.js';
import { at, must } from '../support/must.js';

interface Extracted {
  note: ParsedNote;
  lines: string[];
  x: Extraction;
}

async function extractFolder(root: string): Promise<Extracted[]> {
  return (await loadFolder(root)).map(({ note, lines }) => ({ note, lines, x: extractFast(note) }));
}

/**
 * Letter/digit runs of a cleaned sentence, cut where the script changes (Markdown may sit between a
 * Chinese word and an English one): each must still be in the source lines it cites.
 */
function wordRuns(text: string): string[] {
  return text.toLowerCase().match(/\p{Script=Han}+|[\p{Script=Latin}\p{N}]+|[\p{L}\p{N}]+/gu) ?? [];
}

/** Source lines without the Markdown marks that may sit inside a word ("[[API]]s" reads "APIs"). */
function readerText(source: string): string {
  return source.toLowerCase().replace(/[[\]`*~=]/g, '');
}

function expectFcisInTheirLines({ note, lines, x }: Extracted): void {
  for (const fci of x.fcis) {
    const chunk = at(note.chunks, fci.chunkOrd, `${note.relPath}: chunk`);
    expect(chunk.isCode).toBe(false);
    // A list fact led by its heading starts on the heading's line, just above its chunk; nothing else may.
    expect(fci.lineFrom === chunk.headingLine || fci.lineFrom >= chunk.lineFrom, `${note.relPath}:${fci.lineFrom} "${fci.text}"`).toBe(true);
    expect(fci.lineTo).toBeLessThanOrEqual(chunk.lineTo);
    const cited = readerText(citedLines(lines, fci.lineFrom, fci.lineTo));
    const runs = wordRuns(fci.text);
    expect(runs.length).toBeGreaterThan(0);
    for (const run of runs) expect(cited, `${note.relPath}:${fci.lineFrom} "${fci.text}"`).toContain(run);
    // The range is tight: the sentence starts on its first line and ends on its last.
    expect(readerText(at(lines, fci.lineFrom - 1))).toContain(at(runs, 0));
    expect(readerText(at(lines, fci.lineTo - 1))).toContain(at(runs, -1));
  }
}

function expectProvenance({ note, lines, x }: Extracted): void {
  for (const item of [...x.entities, ...x.triples]) {
    const chunk = at(note.chunks, item.chunkOrd, `${note.relPath}: chunk`);
    if (item.lineFrom >= chunk.lineFrom && item.lineTo <= chunk.lineTo) continue;
    // Only a link written in a heading lies outside every chunk: it keeps its own line (and the
    // chunk under that heading); that line must show the link.
    const target = 'relation' in item ? item.object : item.name;
    const isLink = 'relation' in item ? item.relation === 'links to' : item.type === 'link';
    expect(isLink, `${note.relPath}: ${JSON.stringify(item)} lies outside chunk ${item.chunkOrd}`).toBe(true);
    expect(item.lineFrom).toBe(item.lineTo);
    expect(at(lines, item.lineFrom - 1).toLowerCase()).toContain(target.toLowerCase());
  }
  for (const e of x.entities) {
    expect(e.norm.length).toBeGreaterThan(0);
    if (['proper', 'known', 'concept', 'keyword', 'DATE'].includes(e.type ?? '')) {
      const cited = readerText(citedLines(lines, e.lineFrom, e.lineTo));
      for (const run of wordRuns(e.name)) expect(cited, `${note.relPath}: entity ${e.name}`).toContain(run);
    }
  }
  const norms = new Set(x.entities.map((e) => `${e.chunkOrd}|${e.norm}`));
  expect(norms.size).toBe(x.entities.length);
}

function flatten(node: MindMapNode, path: string[] = [], out: { node: MindMapNode; path: string[] }[] = []) {
  out.push({ node, path });
  for (const child of node.children) flatten(child, [...path, node.text], out);
  return out;
}

function expectMindMapMatches({ note, x }: Extracted): void {
  const map = x.mindMap;
  expect(map.kind).toBe('topic');
  expect(map.text).toBe(mindMapTopic(note, x.fcis));
  const facts = flatten(map).filter(({ node }) => node.kind === 'fact');
  expect(facts.map(({ node }) => node.fciIndex).sort((a, b) => a! - b!)).toEqual(x.fcis.map((_, i) => i));
  for (const { node, path } of facts) {
    const fci = at(x.fcis, node.fciIndex!, 'the fact node’s FCI');
    expect(node.text).toBe(fci.text);
    expect([node.lineFrom, node.lineTo]).toEqual([fci.lineFrom, fci.lineTo]);
    expect(node.children).toEqual([]);
    // Topic first, then the heading path of the fact's chunk, then routes of the passage structure
    // (paragraphs, lead-ins, list items), each spanning the fact's lines.
    const headings = at(note.chunks, fci.chunkOrd).headingPath;
    expect(path.slice(1, 1 + headings.length)).toEqual(headings);
    expect(path.length - 1 - headings.length).toBeLessThanOrEqual(8);
  }
  for (const { node } of flatten(map)) {
    if (node.kind !== 'route') continue;
    expect(node.children.length).toBeGreaterThan(0);
    for (const child of node.children) {
      expect(child.lineFrom!).toBeGreaterThanOrEqual(node.lineFrom!);
      expect(child.lineTo!).toBeLessThanOrEqual(node.lineTo!);
    }
  }
}

describe('fast mind maps follow the note structure, and opaque names give way to the text', () => {
  let all: Extracted[];
  const byPath = (relPath: string) => all.find((e) => e.note.relPath === relPath)!;
  /** A tree as "kind:text" lines indented by depth, to compare shapes. */
  const shape = (node: MindMapNode, depth = 0): string[] => [
    `${'  '.repeat(depth)}${node.kind}:${node.text}`,
    ...node.children.flatMap((c) => shape(c, depth + 1)),
  ];

  beforeAll(async () => {
    all = await extractFolder(STRUCTURE_NOTES);
  });

  it('keeps every FCI once, under its headings, within its routes\' lines', () => {
    expect(all).toHaveLength(4);
    for (const e of all) {
      expectFcisInTheirLines(e);
      expectMindMapMatches(e);
    }
  });

  it('groups a note without headings by paragraphs, lead-ins and nested list items, not one flat fan', () => {
    const map = byPath('packing-list.md').x.mindMap;
    expect(map.text).toBe('packing-list');
    expect(map.children.every((c) => c.kind === 'route')).toBe(true);
    expect(map.children.map((c) => c.text)).toEqual([
      'Packing for a week of hiking in the fjords takes some care.',
      'Clothing to bring along',
      'Food is bought in the villages along the way.',
    ]);
    const clothing = at(map.children, 1);
    const layers = clothing.children.find((c) => c.kind === 'route')!;
    expect(layers.text).toBe('Two merino base layers, one light and one warm.');
    expect(layers.children.map((c) => c.text)).toEqual([
      'Two merino base layers, one light and one warm.',
      'The light layer is worn on the climbing days.',
      'The warm layer is kept dry for the evenings.',
    ]);
    // The lead-in's own sentence comes first in its route, then its items.
    expect(clothing.children.filter((c) => c.kind === 'fact').map((c) => c.text)).toEqual([
      'Clothing to bring along:',
      'A waterproof shell jacket with taped seams.',
      'Wool socks, at least four pairs of them.',
    ]);
    expect([layers.lineFrom, layers.lineTo]).toEqual([6, 8]);
    expect(at(map.children, 2).children).toHaveLength(3);
  });

  it('leaves single-sentence paragraphs as facts and needs no route when a section holds one passage', () => {
    const ferry = byPath('2024-03-17.md').x.mindMap;
    expect(ferry.children.map((c) => c.kind)).toEqual(['fact', 'fact']);
    const code = extractFast(parseNote('one.md', 'A single paragraph holds two sentences in this note. Nothing else is written here.\n'));
    expect(shape(code.mindMap).map((l) => l.trim().split(':')[0])).toEqual(['topic', 'fact', 'fact']);
  });

  it('names a note called by a date, a number or a hash by its first heading or first sentence', () => {
    expect(byPath('2024-03-17.md').x.mindMap.text).toBe('The ferry to the island leaves at seven in the morning from the north pier.');
    expect(byPath('48213.md').x.mindMap.text).toBe('港口扩建计划');
    expect(byPath('9f86d081884c7d65.txt').x.mindMap.text).toBe('Release notes for the sync tool describe three fixes in this version.');
    // The document keeps its name; only the mind-map topic (what pgr seeds from) changes.
    expect(byPath('48213.md').note.title).toBe('48213');
    const meaningful = extractFast(parseNote('Ferry times.md', 'The ferry to the island leaves at seven in the morning.\n'));
    expect(meaningful.mindMap.text).toBe('Ferry times');
    const untitledNews = parseNote('news.md', '市政府宣布，港口扩建工程将于明年春季开工。工程预计耗时三年。\n');
    untitledNews.title = '31877';
    expect(extractFast(untitledNews).mindMap.text).toBe('市政府宣布，港口扩建工程将于明年春季开工。');
  });
});

describe('extractFast on the bundled sample notes', () => {
  let all: Extracted[];
  const byTitle = (title: string) => all.find((e) => e.note.title === title)!;

  beforeAll(async () => {
    all = await extractFolder(SAMPLE_NOTES);
  });

  it('labels its output fast', () => {
    for (const { x } of all) expect(x.extractor).toBe('fast');
  });

  it('turns prose sentences into FCIs that cite the exact lines they came from', () => {
    for (const e of all) {
      expect(e.x.fcis.length, e.note.relPath).toBeGreaterThan(0);
      expectFcisInTheirLines(e);
    }
  });

  it('cleans Markdown out of FCIs and leaves code alone', () => {
    const texts = all.flatMap((e) => e.x.fcis.map((f) => f.text));
    for (const t of texts) {
      expect(t).not.toMatch(/\[\[|\]\]|\*\*|^\s*[-*+]\s|^\s*\d+\.\s|\|/);
      expect(t).not.toMatch(/\]\(/);
    }
    expect(texts).toContain('Add 80 g of green coffee, for example Colombia Huila Washed.');
    expect(texts.some((t) => t.includes('read_temp'))).toBe(false);
  });

  it('splits Chinese sentences too', () => {
    const zh = byTitle('云南咖啡');
    expect(zh.note.lang).toBe('zh');
    expect(zh.x.fcis.length).toBeGreaterThanOrEqual(4);
    for (const f of zh.x.fcis) expect(f.text).toMatch(/[。！？]$/);
  });

  it('builds a mind map of title, heading routes and the FCIs as facts', () => {
    for (const e of all) expectMindMapMatches(e);
    const v60 = byTitle('V60 Recipe').x.mindMap;
    const dose = v60.children.find((c) => c.text === 'Dose and grind')!;
    expect(dose.kind).toBe('route');
    expect(dose.children.some((c) => c.kind === 'route' && c.text === 'For natural coffees')).toBe(true);
  });

  it('keeps every entity and triple on lines of its chunk', () => {
    for (const e of all) expectProvenance(e);
  });

  it('finds the facts that multi-hop questions need, in the notes that state them', () => {
    const has = (title: string, s: string, r: string, o: string) =>
      byTitle(title).x.triples.some((t) => t.subject === s && t.relation === r && t.object === o);
    expect(has('Kestrel Coffee Works', 'Kestrel Coffee Works', 'founded by', 'Mara Lindqvist')).toBe(true);
    expect(has('Mara Lindqvist', 'Mara Lindqvist', 'born in', 'Tromsø')).toBe(true);
    expect(has('Colombia Huila Washed', 'farm', 'run by', 'Alirio Muñoz')).toBe(true);
  });

  it('adds the structural triples: title links to target, title has section', () => {
    for (const { note, x } of all) {
      for (const link of note.links) {
        const name = link.target.replace(/^.*\//, '').replace(/\.(md|markdown|txt)$/i, '');
        if (!/\.txt$/i.test(link.target)) {
          expect(x.triples.some((t) => t.subject === note.title && t.relation === 'links to' && t.object === name && t.lineFrom === link.line)).toBe(true);
        }
      }
      const topHeadings = new Set(note.chunks.map((c) => c.headingPath[0]).filter(Boolean));
      for (const h of topHeadings) {
        expect(x.triples.some((t) => t.subject === note.title && t.relation === 'has section' && t.object === h)).toBe(true);
      }
    }
  });

  it('normalises entities so one name merges across notes', () => {
    const notesWith = (norm: string) => all.filter((e) => e.x.entities.some((en) => en.norm === norm)).length;
    expect(notesWith('kestrel coffee work')).toBeGreaterThanOrEqual(4);
    expect(notesWith('mara lindqvist')).toBeGreaterThanOrEqual(4);
    expect(notesWith('ethiopia guji natural')).toBeGreaterThanOrEqual(3);
  });

  it('uses jieba keywords for Chinese entities', () => {
    const zh = byTitle('云南咖啡').x.entities.filter((e) => e.type === 'keyword');
    expect(zh.length).toBeGreaterThan(3);
    expect(zh.every((e) => e.name.length >= 2)).toBe(true);
    expect(zh.some((e) => detectLang(e.name) === 'zh')).toBe(true);
  });
});

describe('extractFast on the fixture notes', () => {
  it('cites exact lines across CRLF, nested headings, plain text and long sections', async () => {
    const all = await extractFolder(FIXTURE_NOTES);
    for (const e of all) {
      expectFcisInTheirLines(e);
      expectMindMapMatches(e);
      expectProvenance(e);
    }
    const crlf = all.find((e) => e.note.relPath === 'crlf-endings.md')!;
    const spanning = crlf.x.fcis.find((f) => f.text.startsWith('This file was saved on Windows'))!;
    expect([spanning.lineFrom, spanning.lineTo]).toEqual([3, 4]);
  });

  it('states facts about the title (qualifier dropped, copula + participle chained, pronoun resolved) and births in parentheses', async () => {
    const all = await extractFolder(FIXTURE_NOTES);
    const lantern = all.find((e) => e.note.title === 'The Lantern (film)')!;
    const triples = lantern.x.triples.map((t) => `${t.subject} | ${t.relation} | ${t.object}`);
    expect(triples).toContain('The Lantern | directed by | Sofie Brandt');
    expect(triples).toContain('The Lantern | shot in | Aarhus');
    expect(triples).toContain('score | composed by | Henrik Falk');
    expect(triples).toContain('Sofie Brandt | born in | Odense');
    expect(triples).toContain('Sofie Brandt | write | screenplay');
    const names = lantern.x.entities.map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['The Lantern', 'Sofie Brandt', 'Aarhus', 'Henrik Falk']));
  });

  it('makes no FCIs from code, even when a note is only code', () => {
    const note = parseNote('code.md', '# Only Code\n\n```js\nconsole.log("this is a sentence, isn\'t it?");\n```\n');
    const x = extractFast(note);
    expect(x.fcis).toEqual([]);
    expect(x.mindMap).toEqual({ kind: 'topic', text: 'Only Code', children: [] });
  });
});

describe('extractFast on Chinese news (CRUD-RAG)', () => {
  it('segments, extracts FCIs, keyword entities and a mind map with routes', async () => {
    if (!available(CRUD_NEWS)) return;
    const articles = await readNewsArticles(CRUD_NEWS, 3);
    const content = ['# 新闻摘录', '', ...articles.flatMap((a) => [`## 新闻 ${a.id}`, '', a.text, ''])].join('\n');
    const note = parseNote('news.md', content);
    const lines = content.split('\n');
    expect(note.lang).toBe('zh');
    const x = extractFast(note);
    expectFcisInTheirLines({ note, lines, x });
    expectMindMapMatches({ note, lines, x });
    expectProvenance({ note, lines, x });
    expect(x.fcis.length).toBeGreaterThanOrEqual(articles.length * 2);
    expect(x.mindMap.children.filter((c) => c.kind === 'route')).toHaveLength(articles.length);
    expect(x.entities.filter((e) => e.type === 'keyword').length).toBeGreaterThanOrEqual(articles.length * 3);
    // jieba's part-of-speech tags give a few subject–verb–object triples, each on its sentence's lines.
    const svo = x.triples.filter((t) => t.relation !== 'links to' && t.relation !== 'has section');
    expect(svo.length).toBeGreaterThan(0);
    for (const t of svo) {
      const cited = readerText(citedLines(lines, t.lineFrom, t.lineTo));
      for (const run of [...wordRuns(t.subject), ...wordRuns(t.relation), ...wordRuns(t.object)]) expect(cited).toContain(run);
    }
  });
});

describe('extractFast on real notes folders', () => {
  for (const [name, root] of [
    ['SilverBullet docs', SILVERBULLET],
    ['Foam docs', FOAM],
  ] as const) {
    it(`yields FCIs, mind maps, entities and triples for ${name}, all cited exactly`, async () => {
      if (!available(root)) return;
      const all = await extractFolder(root);
      const sum = (f: (e: Extracted) => number) => all.reduce((n, e) => n + f(e), 0);
      expect(sum((e) => e.x.fcis.length)).toBeGreaterThan(all.length * 3);
      expect(sum((e) => e.x.entities.length)).toBeGreaterThan(all.length * 3);
      expect(sum((e) => e.x.triples.filter((t) => t.relation !== 'links to' && t.relation !== 'has section').length)).toBeGreaterThan(all.length / 2);
      expect(all.filter((e) => e.x.mindMap.children.some((c) => c.kind === 'route')).length).toBeGreaterThan(all.length / 3);
      for (const e of all) {
        expectFcisInTheirLines(e);
        expectMindMapMatches(e);
        expectProvenance(e);
      }
    }, 60_000);
  }

  it('runs scan + read + parse + extract over the SilverBullet docs', async () => {
    if (!available(SILVERBULLET)) return;
    const started = performance.now();
    const cpuStart = process.cpuUsage();
    const { files } = await scanFolder(SILVERBULLET);
    let fcis = 0;
    for (const f of files) {
      const r = await readNote(f.absPath);
      if (r.ok) fcis += extractFast(parseNote(f.relPath, r.content)).fcis.length;
    }
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuStart);
    console.log(`silverbullet: ${files.length} notes, ${fcis} FCIs, ${wallMs.toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU`);
    expect(files.length).toBeGreaterThan(200);
    expect(fcis).toBeGreaterThan(files.length);
    // Speed is a benchmark's business (loci bench-index), not a timed test's: the figure is printed above.
  }, 60_000);
});

describe('parse + extract on odd notes', () => {
  const odd: Record<string, string> = {
    'only-front-matter.md': '---\ntitle: Nothing Else\n---\n',
    'unclosed-fence.md': '# Fence\n\n```js\nconst a = 1;\nno closing fence, the rest is code\n',
    'only-headings.md': '# A\n## B\n### C\n',
    'html.md': '<div class="x">\n<p>Some <b>bold</b> HTML paragraph that still says something useful.</p>\n</div>\n',
    'emoji.md': '# 😀 Emoji\n\nCoffee ☕ tastes better 🙂 with friends who roast beans at home.\n',
    'rtl.md': '# שלום\n\nזה משפט בעברית. هذه جملة عربية.\n',
    'no-spaces.md': `# Long\n\n${'x'.repeat(10_000)}\n`,
    'quotes.md': '> > > Deeply nested quote that is still a real sentence with words.\n> > back out one level and talking more.\n',
    'mixed.md': '# 混合 Mixed\n\nThe SDK 已经支持 dynamic resolution. 英特尔发布了新版本。Then English again, for good measure.\n',
    'weird.txt': '\t\n\n  \n#\n[[\n]]\n[[|]]\n[[#]]\n',
  };
  for (const [name, content] of Object.entries(odd)) {
    it(`survives ${name}`, () => {
      const note = parseNote(name, content);
      const x = extractFast(note);
      const lines = content.split('\n');
      expectFcisInTheirLines({ note, lines, x });
      expectMindMapMatches({ note, lines, x });
      expectProvenance({ note, lines, x });
    });
  }

  it('gives a note with no chunks an empty extraction, not an error', () => {
    const x = extractFast(parseNote('only-front-matter.md', must(odd['only-front-matter.md'], 'the only-front-matter note')));
    expect(x).toMatchObject({ fcis: [], entities: [], triples: [], mindMap: { kind: 'topic', text: 'Nothing Else', children: [] } });
  });
});

describe('sentences and names', () => {
  it('keeps a title or an initial with the name it stands before, and still splits where a sentence ends', () => {
    const content = '# Guests\n\nOur guide was Dr. Amundsen, who walked us to St. Olaf church with J. R. Hartley. He left at noon.\nThe ferry left from Washington, D.C. It was late by more than an hour.\n';
    expectSentences('guests.md', content, [
      'Our guide was Dr. Amundsen, who walked us to St. Olaf church with J. R. Hartley.',
      'He left at noon.',
      'The ferry left from Washington, D.C.',
      'It was late by more than an hour.',
    ]);
  });

  it('does not end a sentence at a URL query or a parameter, and still ends one at a question or exclamation mark before a space', () => {
    const content =
      '# Reset\n\nYou can perform a full client reset by adding `?resetClient=1` to any URL, such as http://localhost:3000/?disableSpaceLua=1 here. Did the reset work for you today? It did work very well after that! 你今天过得怎么样?我今天过得很好。\n';
    expectSentences('reset.md', content, [
      'You can perform a full client reset by adding ?resetClient=1 to any URL, such as http://localhost:3000/?disableSpaceLua=1 here.',
      'Did the reset work for you today?',
      'It did work very well after that!',
      '你今天过得怎么样?',
      '我今天过得很好。',
    ]);
  });

  it('does not end a sentence at "e.g.", "i.e." or "vs.", and still ends one at "etc." before a capital', () => {
    const content =
      '# Network\n\n- `SB_PORT`: Sets the port to listen to, e.g. `SB_PORT=1234`, default is `3000`\n\nTags are plain words, i.e. They carry no value. Compare Docker vs. Podman for this setup. Use apples, pears, etc. Then sort them well.\n';
    expectSentences('network.md', content, [
      'SB_PORT: Sets the port to listen to, e.g. SB_PORT=1234, default is 3000',
      'Tags are plain words, i.e. They carry no value.',
      'Compare Docker vs. Podman for this setup.',
      'Use apples, pears, etc.',
      'Then sort them well.',
    ]);
  });
});

/** The note's facts are exactly these sentences, each cited from the lines that hold it. */
function expectSentences(file: string, content: string, sentences: string[]): void {
  const note = parseNote(file, content);
  const x = extractFast(note);
  expect(x.fcis.map((f) => f.text)).toEqual(sentences);
  expectFcisInTheirLines({ note, lines: content.split('\n'), x });
}
