import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractiveAnswer } from '../../main/engine/answer/extractive.js';
import { introducedTable } from '../../main/engine/answer/lead-ins.js';
import { retrieve } from '../../main/engine/retrieve/index.js';
import { indexNotes, type IndexedNotes } from '../support/indexed-notes.js';

// How-to notes put the step in a code block or a list under a sentence ending in a colon; the answer
// shows it under that fact and cites its lines, and a long one only its first lines.
const CLI = [
  '# Links command',
  '',
  'Show only the incoming links of a note:',
  '',
  '```bash',
  'notes links my-note --incoming',
  '```',
  '',
  'Print every option of the links command:',
  '',
  '```',
  ...Array.from({ length: 12 }, (_, i) => `option-${i + 1}`),
  '```',
  '',
  'The links command never changes a note.',
  '',
  'The notes server reads one setting. Start the notes server with a password set.',
  '',
  '```',
  'NOTES_PASSWORD=secret notes serve',
  '```',
  '',
  '## Panel',
  '',
  'The connections panel opens in three steps:',
  '',
  '1. Open the command palette',
  '2. Type connections and pick the panel',
  '3. Use the filter buttons to keep only incoming links',
  '',
  'Each note lists what links to it:',
  '',
  ...Array.from({ length: 7 }, (_, i) => `- Linking note number ${i + 1}`),
  '',
  '## Snippets',
  '',
  'Insert a link to a nearby daily note with these snippets:',
  '',
  '| Snippet | Inserts |',
  '| ------- | :-----: |',
  '| `/today` | the daily note of today |',
  '| `/tomorrow` | the daily note of tomorrow |',
  '| `/yesterday` | the daily note of yesterday |',
  '| `/monday` | the daily note of next Monday |',
  '| `/+1d` | the daily note one day ahead |',
  '| `/-3d` | the daily note three days back |',
  '',
].join('\n');

describe('an extractive answer’s lead-in facts', () => {
  let notes: IndexedNotes | undefined;
  beforeAll(async () => {
    notes = await indexNotes('loci-lead-ins-', { 'links.md': CLI });
  }, 60_000);
  afterAll(() => notes?.close());

  const ask = async (question: string) => {
    const r = await retrieve(notes!.ctx, question, 'loci', 8);
    return extractiveAnswer(notes!.ctx, question, r.contexts, 5, r.query);
  };
  type Answer = Awaited<ReturnType<typeof ask>>;
  /** The answer's citation of the fact starting so (the test fails where there is none). */
  const citing = (a: Answer, start: string) => {
    const c = a.citations.find((x) => x.text.startsWith(start));
    expect(c, a.text).toBeDefined();
    return c!;
  };

  it('shows the code block a colon introduces, and cites its lines', async () => {
    const a = await ask('How do I show only the incoming links of a note?');
    const lines = CLI.split('\n');
    const lead = citing(a, 'Show only the incoming links');
    expect(lead.lineFrom).toBe(lines.indexOf('Show only the incoming links of a note:') + 1);
    expect(lead.lineTo).toBe(lines.indexOf('notes links my-note --incoming') + 2);
    expect(a.text).toContain(`[${lead.n}]\n  \`\`\`bash\n  notes links my-note --incoming\n  \`\`\``);
  });

  it('cuts a long block to its first lines', async () => {
    const a = await ask('How do I print every option of the links command?');
    expect(a.text).toContain('option-8\n  …\n');
    expect(a.text).not.toContain('option-9');
  });

  it('shows the list a colon introduces under it, numbered as written, and no item again on its own', async () => {
    const a = await ask('How do I open the connections panel and keep only incoming links with the filter buttons?');
    const lines = CLI.split('\n');
    const lead = citing(a, 'The connections panel opens');
    expect(lead.lineTo).toBe(lines.indexOf('3. Use the filter buttons to keep only incoming links') + 1);
    expect(a.text).toContain(`[${lead.n}]\n  1. Open the command palette\n  2. Type connections and pick the panel\n  3. Use the filter buttons to keep only incoming links`);
    // The item matching the question best would have been a bullet of its own.
    expect(a.citations.filter((c) => c.text.includes('filter buttons'))).toEqual([]);
  });

  it('cuts a long list to its first items, and leaves the rest to stand as facts of their own', async () => {
    const a = await ask('Which notes does each note list as linking to it?');
    const under = a.text.split('\n').filter((l) => l.startsWith('  - '));
    expect(under).toEqual([...Array.from({ length: 5 }, (_, i) => `  - Linking note number ${i + 1}`), '  - …']);
    // Those past the fifth are no bullet under it, but may be bullets of their own.
    for (const line of a.text.split('\n').filter((l) => /number [67]/.test(l))) expect(line).toMatch(/^- /);
  });

  it('shows the code under the sentence that ends the paragraph right above it, colon or not', async () => {
    const a = await ask('How do I start the notes server with a password set?');
    // Cited by that sentence, or by the paragraph's first one, which then brings the rest of the paragraph with it.
    const bullet = a.text.split('\n- ').find((b) => b.includes('NOTES_PASSWORD=secret notes serve'));
    expect(bullet).toMatch(/Start the notes server with a password set\.(\*\*)? \[\d+\]\n {2}```\n {2}NOTES_PASSWORD=secret notes serve\n {2}```/);
    const n = Number(/\[(\d+)\]\n/.exec(bullet!)![1]);
    expect(a.citations[n - 1]!.lineTo).toBe(CLI.split('\n').indexOf('NOTES_PASSWORD=secret notes serve') + 2);
    expect(a.text.match(/NOTES_PASSWORD/g)).toHaveLength(1);
  });

  it('shows the table a colon introduces, its first rows, and no shown row again on its own', async () => {
    const a = await ask('Which snippets insert a link to a nearby daily note?');
    const lines = CLI.split('\n');
    const lead = citing(a, 'Insert a link to a nearby daily note');
    expect(lead.lineTo).toBe(lines.indexOf('| `/+1d` | the daily note one day ahead |') + 1);
    expect(a.text).toContain(
      [
        `[${lead.n}]`,
        '  | Snippet | Inserts |',
        '  | --- | :---: |',
        '  | `/today` | the daily note of today |',
        '  | `/tomorrow` | the daily note of tomorrow |',
        '  | `/yesterday` | the daily note of yesterday |',
        '  | `/monday` | the daily note of next Monday |',
        '  | `/+1d` | the daily note one day ahead |',
        '  | … | … |',
      ].join('\n'),
    );
    // A shown row is no bullet of its own; the row past the fifth may be.
    expect(a.citations.filter((c) => c.lineFrom > lead.lineFrom && c.lineFrom <= lead.lineTo)).toEqual([]);
    expect(a.text.match(/the daily note of today/g)).toHaveLength(1);
  });

  it('adds nothing to a fact that introduces no code', async () => {
    const a = await ask('Does the links command change a note?');
    const never = citing(a, 'The links command never');
    expect(never.lineTo).toBe(never.lineFrom);
    expect(a.text.split('\n').filter((l) => l.startsWith('  ```')).length % 2).toBe(0);
  });
});

describe('the table a lead-in introduces', () => {
  const lines = (...text: string[]) => (line: number) => text[line - 1] ?? null;
  const table = ['| Key | Does |', '| --- | --- |', '| a | first |'];

  it('is a header and its delimiter row within two lines of the lead-in', () => {
    expect(introducedTable({ text: 'The keys:', lineTo: 1 }, lines('The keys:', '', ...table))?.markdown).toBe('| Key | Does |\n| --- | --- |\n| a | first |');
    expect(introducedTable({ text: 'The keys:', lineTo: 1 }, lines('The keys:', '', '', ...table))).toBeNull();
  });

  it('needs the colon, the delimiter row and a pipe', () => {
    expect(introducedTable({ text: 'The keys.', lineTo: 1 }, lines('The keys.', ...table))).toBeNull();
    expect(introducedTable({ text: 'The keys:', lineTo: 1 }, lines('The keys:', 'Heading', '---'))).toBeNull();
    expect(introducedTable({ text: 'The keys:', lineTo: 1 }, lines('The keys:', '| Key | Does |', '| a | first |'))).toBeNull();
  });
});
