import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retrieve } from '../../main/engine/retrieve/index.js';
import { severalPassagesPerNote } from '../../main/engine/retrieve/passage-choice.js';
import { passageSpans, SECTION_SPANS } from '../../main/engine/retrieve/passage-spans.js';
import { formatExplanation } from '../../main/engine/retrieve/explain.js';
import { withFurtherPassages } from '../../main/engine/retrieve/pgr/further-passages.js';
import type { RetrievedContext } from '../../main/engine/types.js';
import { indexNotes, type IndexedNotes } from '../support/indexed-notes.js';

// Three guides of several sections each (a folder of documentation, where a note is many passages). The
// sync guide's "Schedule" section is cut where code meets prose: its lead-in, the JSON and the values.
const guide = (title: string, sections: [string, string][]) => [`# ${title}`, '', `${title} explains one part of the editor.`, '', ...sections.flatMap(([h, body]) => [`## ${h}`, '', body, ''])].join('\n');
const NOTES = {
  'sync.md': guide('Sync', [
    ['Schedule', 'Set the sync schedule in your settings:\n\n```json\n{ "sync.every": "20s" }\n```\n\nThe schedule accepts seconds or minutes; the open page syncs every 5 seconds.'],
    ['Conflicts', 'When two clients change the same file, the sync keeps both copies and marks the newer one as a conflict.'],
    ['Offline', 'Without a connection the editor queues changes and sends them when it is back online.'],
  ]),
  'themes.md': guide('Themes', [
    ['Colours', 'A theme sets the colours of the editor, the sidebar and the page picker.'],
    ['Fonts', 'Pick the editor font and its size; monospace fonts suit tables.'],
    ['Dark mode', 'Dark mode follows the system setting unless a theme forces it.'],
  ]),
  'backups.md': guide('Backups', [
    ['Nightly', 'Copy the notes folder somewhere safe every night; the backup tool keeps seven copies.'],
    ['Restore', 'To restore, stop the editor and copy a backup over the notes folder.'],
    ['Encryption', 'Backups can be encrypted with a passphrase the tool asks for once.'],
  ]),
};
const QUESTION = 'How often does the sync schedule run, and what happens when two clients change the same file?';

describe('hig and pgr in a folder of guides', () => {
  let notes: IndexedNotes | undefined;
  let id: (part: string) => number = () => -1;
  beforeAll(async () => {
    notes = await indexNotes('loci-graph-passages-', NOTES);
    const rows = notes.db.prepare('SELECT id, text FROM chunks').all() as { id: number; text: string }[];
    id = (part) => rows.find((r) => r.text.includes(part))!.id;
  }, 60_000);
  afterAll(() => notes?.close());

  it('is a folder whose notes are several passages each', () => {
    expect(severalPassagesPerNote(notes!.ctx)).toBe(true);
  });

  it("hig shows the sync guide's passage in its section's span, and the guide's other matching passage beside it", async () => {
    notes!.ctx.cache.forgetQuestions();
    const docs = (await retrieve(notes!.ctx, QUESTION, 'hig', 5)).contexts.filter((c) => c.kind === 'chunk');
    const sync = docs.filter((c) => c.docPath === 'sync.md');
    // The schedule's lead-in, JSON and values are one context, not three cut apart.
    const schedule = sync.find((c) => c.text.includes('sync.every'));
    expect(schedule?.text).toContain('Set the sync schedule');
    expect(schedule?.text).toContain('every 5 seconds');
    expect(sync.some((c) => c.text.includes('keeps both copies'))).toBe(true);
    // No text shown twice.
    const shown = docs.map((c) => c.chunkId);
    expect(new Set(shown).size).toBe(shown.length);
  });

  it("pgr's contexts show no passage twice and keep a span's lines", async () => {
    notes!.ctx.cache.forgetQuestions();
    const contexts = (await retrieve(notes!.ctx, QUESTION, 'pgr', 5)).contexts;
    expect(contexts.length).toBeGreaterThan(0);
    const spans = passageSpans(
      notes!.db,
      contexts.flatMap((c) => c.chunkId ?? []),
    );
    const seen = new Set<number>();
    for (const c of contexts) {
      if (c.chunkId === undefined) continue;
      for (const x of spans.get(c.chunkId)!) {
        expect(seen.has(x)).toBe(false);
        seen.add(x);
      }
      expect(c.lineTo).toBeGreaterThanOrEqual(c.lineFrom);
    }
  });

  it("pgr adds a note's near-top passages after its first fact path, in place of later fact paths, never of a note", () => {
    const ctx = notes!.ctx;
    const context = (docPath: string, part: string): RetrievedContext => ({
      text: part,
      docId: (ctx.db.prepare('SELECT id FROM documents WHERE rel_path = ?').get(docPath) as { id: number }).id,
      docPath,
      docTitle: docPath,
      lineFrom: 1,
      lineTo: 1,
      factPath: `${docPath} › ${part}`,
      score: 1,
      kind: 'fact-path',
      chunkId: id(part),
    });
    const facts = [
      context('sync.md', 'queues changes'),
      context('themes.md', 'colours of the editor'),
      context('sync.md', 'Sync explains'),
      context('backups.md', 'every night'),
      context('themes.md', 'Dark mode follows'),
    ];
    const spans = passageSpans(
      ctx.db,
      facts.map((c) => c.chunkId!),
    );
    // The fusion ranks the sync guide's conflicts passage and the themes passage already shown near the top.
    const fused = [
      { id: id('keeps both copies'), score: 0.03 },
      { id: id('colours of the editor'), score: 0.02 },
    ];
    const out = withFurtherPassages(ctx, facts, fused, spans, 5);
    expect(out.map((c) => c.kind)).toEqual(['fact-path', 'chunk', 'fact-path', 'fact-path', 'fact-path']);
    expect(out[1]!.docPath).toBe('sync.md');
    expect(out[1]!.text).toContain('keeps both copies');
    // Every note of the first five facts is still there; the themes guide's second fact made room.
    expect(new Set(out.map((c) => c.docPath))).toEqual(new Set(['sync.md', 'themes.md', 'backups.md']));
    expect(out.map((c) => c.text)).not.toContain('Dark mode follows');
    // With no room to spare (every fact a note of its own), nothing is added.
    const distinct = [facts[0]!, facts[1]!, facts[3]!];
    expect(withFurtherPassages(ctx, distinct, fused, spans, 3)).toEqual(distinct);
  });

  it("pgr shows no line twice: a further passage's span loses what a fact's span already shows", () => {
    const ctx = notes!.ctx;
    const syncId = (ctx.db.prepare('SELECT id FROM documents WHERE rel_path = ?').get('sync.md') as { id: number }).id;
    const [lead, json, values] = [id('Set the sync schedule'), id('sync.every'), id('every 5 seconds')];
    const fact: RetrievedContext = { text: 'Set the sync schedule', docId: syncId, docPath: 'sync.md', docTitle: 'Sync', lineFrom: 1, lineTo: 1, factPath: 'Sync › Schedule', score: 1, kind: 'fact-path', chunkId: lead };
    const other: RetrievedContext = { ...fact, text: 'queues changes', factPath: 'Sync › Offline', chunkId: id('queues changes') };
    // The schedule's lead-in is shown with the JSON; the values passage's span reaches back to the JSON.
    const spans = new Map([
      [lead, [lead, json]],
      [values, [json, values]],
      [other.chunkId!, [other.chunkId!]],
    ]);
    const out = withFurtherPassages(ctx, [fact, other], [{ id: values, score: 0.03 }], spans, 3);
    const added = out.find((c) => c.chunkId === values)!;
    expect(added.text).toContain('every 5 seconds');
    expect(added.text).not.toContain('sync.every');
    const valuesLines = ctx.db.prepare('SELECT line_from AS lineFrom, line_to AS lineTo FROM chunks WHERE id = ?').get(values) as { lineFrom: number; lineTo: number };
    expect([added.lineFrom, added.lineTo]).toEqual([valuesLines.lineFrom, valuesLines.lineTo]);
  });

  it('says in --explain that passages are shown in their spans with their notes\' near-top passages', async () => {
    for (const method of ['hig', 'pgr'] as const) {
      notes!.ctx.cache.forgetQuestions();
      const { explanation } = await retrieve(notes!.ctx, QUESTION, method, 5);
      expect(formatExplanation(explanation)).toContain(SECTION_SPANS);
    }
  });
});
