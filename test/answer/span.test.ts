import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retrieve } from '../../main/engine/retrieve/index.js';
import { extractiveAnswer } from '../../main/engine/answer/extractive.js';
import { indexNotes, type IndexedNotes } from '../support/indexed-notes.js';
import { quotedFact } from '../../main/engine/answer/quoted.js';
import { quotedText } from '../../main/engine/answer/markdown.js';
import { isNavigation } from '../../main/engine/answer/navigation.js';

// The extractive answer over a small TIL-style vault (our own notes, written for this test): a how-to's
// answer is the command under the sentence that leads into it, quoted with its inline code and links,
// and the vault's README — a table of contents — is navigation, not an answer.

const TIL: Record<string, string> = {
  'README.md': [
    '# TIL',
    '',
    'Things I learned, one note each. Git, shell and editor tips.',
    '',
    '## Git',
    '',
    '- [Squash commits with autosquash](git/squash-commits.md)',
    '- [Undo the last commit](git/undo-last-commit.md)',
    '- [Rename a branch](git/rename-branch.md)',
    '- [Squash merge a pull request](git/squash-merge.md)',
    '',
    '## Shell',
    '',
    '- [Find large files](shell/find-large-files.md)',
    '- [Squeeze repeated characters with tr](shell/tr-squeeze.md)',
    '',
  ].join('\n'),
  'git/squash-commits.md': [
    '# Squash commits with autosquash',
    '',
    'Squash commits in git with fixup commits and autosquash. Commit each fix with `git commit --fixup <SHA>` to name the commit it belongs to, then run:',
    '',
    '```sh',
    'git rebase -i --autosquash main',
    '```',
    '',
    'Git moves each fixup commit under its target and marks it `fixup`. See [the rebase manual](https://git-scm.com/docs/git-rebase) for the other options.',
    '',
  ].join('\n'),
  'git/undo-last-commit.md': '# Undo the last commit\n\nTo undo the last commit but keep its changes staged, reset softly:\n\n```sh\ngit reset --soft HEAD~1\n```\n',
  'git/rename-branch.md': '# Rename a branch\n\nRename the branch you are on with `git branch -m new-name`.\n',
  'git/squash-merge.md': '# Squash merge a pull request\n\nA squash merge turns all the commits of a pull request into one commit on the main branch. Hosting sites offer it as a merge button option.\n',
  'shell/find-large-files.md': '# Find large files\n\nList the largest files under a folder:\n\n```sh\ndu -ah . | sort -rh | head -20\n```\n',
  'shell/tr-squeeze.md': '# Squeeze repeated characters with tr\n\n`tr -s` squashes runs of a repeated character into one, for example spaces: `tr -s " "`.\n',
};

describe('the span that answers a how-to', () => {
  let notes: IndexedNotes;
  beforeAll(async () => {
    notes = await indexNotes('loci-answer-span-', TIL);
  });
  afterAll(() => notes.close());

  const ask = async (question: string) => {
    const { contexts, query } = await retrieve(notes.ctx, question, 'loci', 8);
    return extractiveAnswer(notes.ctx, question, contexts, 5, query);
  };
  const shown = (a: { text: string; citations: { docPath: string; text: string }[] }) => `${a.text}\n${JSON.stringify(a.citations.map((c) => [c.docPath, c.text]), null, 1)}`;

  it('shows the command the cited sentence leads into, though the sentence itself does not end in a colon', async () => {
    const a = await ask('How do I squash commits in git?');
    expect(a.citations[0]?.docPath, shown(a)).toBe('git/squash-commits.md');
    expect(a.text, shown(a)).toContain('git rebase -i --autosquash main');
    // The command is shown with the first cited fact, before the next bullet.
    const [first] = a.text.split('\n- ').slice(1);
    expect(first, shown(a)).toContain('git rebase -i --autosquash main');
  });

  it('quotes inline code as code, with <SHA> kept inside it', async () => {
    const a = await ask('How do I squash commits in git?');
    expect(a.text, shown(a)).toContain('`git commit --fixup <SHA>`');
  });

  it('renders a link as a link, not as its raw brackets escaped', async () => {
    const a = await ask('Where is the manual for the other git rebase options?');
    const line = a.text.split('\n').find((l) => l.includes('rebase manual'));
    expect(line, shown(a)).toContain('[the rebase manual](https://git-scm.com/docs/git-rebase)');
  });

  it('ranks the table of contents as navigation, below the notes that answer', async () => {
    for (const question of ['How do I squash commits in git?', 'How do I find large files?', 'How do I rename a branch in git?']) {
      const a = await ask(question);
      // Demoted, not dropped: cited only after every other note's facts.
      const at = a.citations.findIndex((c) => c.docPath === 'README.md');
      const lastOther = a.citations.findLastIndex((c) => c.docPath !== 'README.md');
      expect(at === -1 || at > lastOther, `${question}\n${shown(a)}`).toBe(true);
    }
  });
});

describe('a fact quoted from its lines', () => {
  it('keeps code spans, links and emphasis, and shows raw HTML as text', () => {
    const q = quotedFact('Run git commit --fixup <SHA> and see the manual.', '- Run `git commit --fixup <SHA>` and see [the manual](https://example.org/m).');
    expect(q && quotedText(q)).toBe('Run `git commit --fixup <SHA>` and see [the manual](https://example.org/m).');
    const bare = quotedFact('Replace <SHA> with the hash, in bold.', 'Replace <SHA> with the hash, **in bold**.');
    expect(bare && quotedText(bare)).toBe('Replace \\<SHA> with the hash, **in bold**.');
  });

  it('quotes only the sentence of a longer line, and the closing punctuation after a code span', () => {
    const q = quotedFact('Git marks it fixup.', 'Moves come first. Git marks it `fixup`. See below.');
    expect(q && quotedText(q)).toBe('Git marks it `fixup`.');
  });

  it('gives up on a line without markup, a table row, or a fact not in its lines', () => {
    expect(quotedFact('Plain words.', 'Plain words.')).toBeNull();
    expect(quotedFact('a, b', '| `a` | b |')).toBeNull();
    expect(quotedFact('Something else entirely.', 'Run `x` now.')).toBeNull();
  });
});

describe('how much of a note is links', () => {
  const passage = (text: string) => [{ id: 1, document_id: 1, line_from: 1, line_to: text.split('\n').length, is_code: 0, text }];
  it('tells a table of contents from a note that links in passing', () => {
    expect(isNavigation(passage(TIL['README.md']!))).toBe(true);
    expect(isNavigation(passage(TIL['git/squash-commits.md']!))).toBe(false);
    expect(isNavigation(passage('# Index\n\n- [[Alpha]]\n- [[Beta]]\n- [[Gamma]]\n'))).toBe(true);
    expect(isNavigation(passage('See [[Alpha]], [[Beta]] and [[Gamma]] for the long story of how the three of them came to be written.'))).toBe(false);
  });
});
