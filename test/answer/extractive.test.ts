import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retrieve } from '../../main/engine/retrieve/index.js';
import { extractiveAnswer, withoutRepeats } from '../../main/engine/answer/extractive.js';
import { mentionsName } from '../../main/engine/answer/bridge.js';
import { termMatcher } from '../../main/engine/answer/term-match.js';
import { indexNotes, type IndexedNotes } from '../support/indexed-notes.js';

// What `loci ask` shows with no model, over a real index of real files (fast mode, built-in embedder).

describe('the bridge, from the named note to the note it mentions', () => {
  let notes: IndexedNotes;
  beforeAll(async () => {
    // The question names the album; the album's note names its singer; the singer's note holds the answer.
    // Other singers' notes talk of records and albums too, and the album's own note matches most words.
    notes = await indexNotes('loci-x1-bridge-', {
      'Harbour Lights.md':
        '# Harbour Lights\n\nHarbour Lights is a 1968 pop album recorded by Ines Varga in Zagreb.\n\nThe album includes the song "Night Ferry", a ballad about the harbour of Split.\n\nThe album was reissued on compact disc in 1994 with two extra songs.\n',
      'Ines Varga.md':
        '# Ines Varga\n\nInes Varga (born 1941) is a Croatian singer of pop ballads.\n\nShe toured Yugoslavia and Italy through the 1960s and 1970s.\n\nShe has sold more than 20 million records worldwide.\n',
      'Luka Ban.md':
        '# Luka Ban\n\nLuka Ban is a pop singer whose 1968 album sold well in Italy.\n\nHis songs were recorded in Zagreb and Milan.\n',
      'Night Ferry.md':
        '# Night Ferry\n\nNight Ferry is a song about the harbour of Split, first recorded for a pop album in 1968.\n\nA later version of the song sold 40,000 copies.\n',
    });
  });
  afterAll(() => notes.close());

  it("cites the singer's records line first when the album's note leads to her", async () => {
    const question = 'The 1968 album Harbour Lights is by a pop singer who has sold how many records worldwide?';
    const { contexts } = await retrieve(notes.ctx, question, 'loci', 8);
    expect(contexts.some((c) => c.docTitle === 'Ines Varga')).toBe(true);
    const a = await extractiveAnswer(notes.ctx, question, contexts);
    expect(a.citations[0]?.docPath, JSON.stringify(a.citations.map((c) => [c.docPath, c.text]), null, 1)).toBe('Ines Varga.md');
    expect(a.citations[0]?.text).toMatch(/20 million records worldwide/);
    // The bridging fact (the album's note naming her) is shown too.
    expect(a.citations.some((c) => c.docPath === 'Harbour Lights.md' && /Ines Varga/.test(c.text))).toBe(true);
  });
});

describe('the rest of a bridged question', () => {
  let notes: IndexedNotes;
  beforeAll(async () => {
    // "born" is asked of the producer, though the film's name holds it too; other notes name the film.
    notes = await indexNotes('loci-x1-rest-', {
      'Born Free (soundtrack).md':
        '# Born Free (soundtrack)\n\nBorn Free is the soundtrack to the film Born Free, produced by Tessa Marlow in London.\n\nThe soundtrack was reissued on vinyl the year before the film turned fifty.\n',
      'Tessa Marlow.md': '# Tessa Marlow\n\nTessa Marlow (born 1962) is an English record producer and composer.\n\nShe produced many film soundtracks in London.\n',
      'Lion Club.md': '# Lion Club\n\nThe Lion Club showed the film Born Free in the year it was founded.\n\nThe club was founded in a year of drought.\n',
      'Free Range.md': '# Free Range\n\nFree Range is a film about a man born on a farm, a play on the title of Born Free.\n',
    });
  });
  afterAll(() => notes.close());

  it('keeps a word the question asks outside a name it also appears in', async () => {
    const question = 'The soundtrack of the film Born Free was produced by a woman born in what year?';
    const { contexts } = await retrieve(notes.ctx, question, 'loci', 8);
    const a = await extractiveAnswer(notes.ctx, question, contexts);
    expect(a.citations[0]?.text, JSON.stringify(a.citations.map((c) => [c.docPath, c.text]), null, 1)).toMatch(/born 1962/);
  });
});

describe('a note the retriever returns several passages of', () => {
  let notes: IndexedNotes;
  const filler = (topic: string) =>
    Array.from({ length: 9 }, (_, i) => `Paragraph ${i + 1} explains how ${topic} behaves when the sync service restarts after an outage of the network.`).join('\n\n');
  beforeAll(async () => {
    // One guide whose three sections each answer part of the question, so retrieval returns it three times.
    notes = await indexNotes('loci-x1-passages-', {
      'Sync.md': [
        '# Sync',
        '## Conflicts',
        'When two devices edit the same page, sync keeps both versions and writes a conflict copy next to the page.',
        filler('the conflict copy'),
        '## Resolving',
        'To resolve a conflict, open the conflict copy, merge the text you want to keep, and delete the copy.',
        filler('resolving a conflict'),
        '## Preventing',
        'Conflicts are rarer when each device syncs the page before editing it and pauses sync during long edits.',
        filler('preventing a conflict'),
      ].join('\n\n'),
      'Backup.md': '# Backup\n\nA backup copies every page to another folder each night.\n\nA backup never merges pages and never resolves a conflict.\n',
      'Pages.md': '# Pages\n\nA page is a Markdown file. Editing a page on two devices at once is supported when sync is on.\n',
    });
  });
  afterAll(() => notes.close());

  it('gives more than two facts of it when it was returned more than twice', async () => {
    const question = 'How does sync handle a conflict copy, and how do I resolve or prevent a conflict?';
    const { contexts } = await retrieve(notes.ctx, question, 'loci', 8);
    const passagesOfSync = contexts.filter((c) => c.docPath === 'Sync.md').length;
    expect(passagesOfSync).toBeGreaterThan(2);
    const a = await extractiveAnswer(notes.ctx, question, contexts);
    const fromSync = a.citations.filter((c) => c.docPath === 'Sync.md');
    expect(fromSync.length).toBeGreaterThan(2);
    expect(fromSync.length).toBeLessThanOrEqual(passagesOfSync);
    expect(a.citations.length).toBeLessThanOrEqual(5);
  });
});

describe('matching the question in a fact', () => {
  it('matches a word by its stem at a word start, not inside another word', () => {
    const m = termMatcher(['founded', 'records', 'man']);
    expect([...m.termsIn('She is the founder of the label and kept its record books.')].sort()).toEqual(['founded', 'records']);
    expect([...m.termsIn('The biggest phenomenon since Beatlemania, said a female critic.')]).toEqual([]);
    expect([...m.termsIn('A man and his many records.')].sort()).toEqual(['man', 'records']);
  });

  it('matches Chinese terms inside the running text', () => {
    const m = termMatcher(['罚款', '多少']);
    expect([...m.termsIn('该公司被罚款50000元。')]).toEqual(['罚款']);
  });

  it('takes a title for a name only where it is written as one', () => {
    expect(mentionsName('Where was the founder of Kestrel Coffee Works born?', 'Kestrel Coffee Works')).toBe(true);
    expect(mentionsName('How do I turn on Vim key bindings?', 'Vim')).toBe(true);
    expect(mentionsName('Which character may not appear in a custom task state?', 'task')).toBe(false);
    expect(mentionsName('Which shortcut opens the Taskbar?', 'task')).toBe(false);
    expect(mentionsName('谁出席了中日和平友好条约缔结45周年纪念集会？', '中日和平友好条约')).toBe(true);
  });
});

describe('a fact that says no more than one shown', () => {
  it('is left out, so another fact takes its place', async () => {
    // A list of links whose item is only the words of a sentence above it (SilverBullet's manual lists
    // "Full Text Search" under its navigation, below a page that says full-text search is not built in).
    const notes = await indexNotes('loci-x1-no-more-', {
      'Records.md':
        '# Records\n\nFull-text search is not built into the records system.\n\n# Navigation\nThe main ways to move around, beside links:\n\n* [[Records]]\n* [[Water Fine]]\n* [[Full Text Search]]\n\n# Other\nRecords are kept for ten years.\n',
      'Water Fine.md':
        '# Water Fine\n\nThe bottling plant was fined 800 yuan for water below the drinking standard.\n\nThe inspectors found the filters had not been changed since spring.\n\nThe plant must retest its water every month for a year.\n',
    });
    try {
      const question = 'Is full text search built into the records system?';
      const { contexts } = await retrieve(notes.ctx, question, 'loci', 8);
      const a = await extractiveAnswer(notes.ctx, question, contexts);
      const shown = a.citations.map((c) => c.text);
      expect(shown[0]).toMatch(/Full-text search is not built into the records system/);
      const words = (t: string) => t.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
      for (const [i, t] of shown.entries()) {
        for (const [j, other] of shown.entries()) if (i !== j) expect(words(other).includes(words(t)), JSON.stringify(shown, null, 1)).toBe(false);
      }
      expect(shown.length).toBe(5);
    } finally {
      notes.close();
    }
  });
});

describe('the path a fact is shown under', () => {
  it('says the sentence that labels its paragraph once, not as the paragraph node and again as the fact', async () => {
    const notes = await indexNotes('loci-x1-path-', {
      'Ada Brook.md': '# Ada Brook\n\n## Background\n\nAda Brook was born in Bergen, Norway, in 1979. She studied botany at the University of\nOslo and worked for five years in a seed bank, testing how long seeds keep when they\nare dried.\n\nShe moved to Trondheim in 2003 and began blending teas in her kitchen.\n\n## Work\n\nAda Brook founded the Larch Tea Company in 2004. It sells smoked black teas.\n',
    });
    try {
      const question = 'Where was Ada Brook born?';
      const { contexts } = await retrieve(notes.ctx, question, 'loci', 8);
      const a = await extractiveAnswer(notes.ctx, question, contexts);
      const born = a.citations.find((c) => /born in Bergen/.test(c.text));
      expect(born?.factPath).toBe('Ada Brook › Background › Ada Brook was born in Bergen, Norway, in 1979.');
      expect(a.text.split('born in Bergen').length - 1).toBe(1);
    } finally {
      notes.close();
    }
  });

  it('drops a shortened paragraph label the fact itself spells out, and keeps other steps', () => {
    expect(withoutRepeats('Tag › Every Object has a main tag, which signifies the type of… › Every Object has a main tag, which signifies the type of object being described.')).toBe(
      'Tag › Every Object has a main tag, which signifies the type of object being described.',
    );
    expect(withoutRepeats('Binary › SilverBullet is distributed as a single server binary… › Linux (x86_64 and arm64)')).toBe(
      'Binary › SilverBullet is distributed as a single server binary… › Linux (x86_64 and arm64)',
    );
  });

  it('drops a list’s label (its first item) where the list’s fact spells it out, and keeps a short heading the fact uses', () => {
    expect(
      withoutRepeats('Daily Notes › Creating Daily Notes › Command: Ctrl+Shift+P → Open Daily Note › Creating Daily Notes: Command: Ctrl+Shift+P → Open Daily Note; Shortcut: Alt+D'),
    ).toBe('Daily Notes › Creating Daily Notes › Creating Daily Notes: Command: Ctrl+Shift+P → Open Daily Note; Shortcut: Alt+D');
    expect(withoutRepeats('global › error › Raises a Lua runtime error with the supplied message.')).toBe('global › error › Raises a Lua runtime error with the supplied message.');
  });

  it('drops a paragraph label the fact repeats with a colon at its end', () => {
    expect(withoutRepeats('Backlinks › The panel shows both kinds of links › The panel shows both kinds of links:')).toBe('Backlinks › The panel shows both kinds of links:');
  });
});
