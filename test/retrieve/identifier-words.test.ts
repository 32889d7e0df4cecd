import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identifierWords } from '../../main/engine/retrieve/passage-choice.js';
import { lociRetriever } from '../../main/engine/retrieve/loci/retriever.js';
import { indexNotes, type IndexedNotes } from '../support/indexed-notes.js';

// A guide names its settings in camelCase, as software documentation does; the question asks in words.
const NOTES = {
  'editor.md': [
    '# Editor',
    '',
    '## Saving',
    '',
    'The editor saves your notes on its own while you type, so there is no button to press before you close a note.',
    '',
    '## Settings',
    '',
    '* `editor.autoSaveInterval`: milliseconds between two writes to disk (default 1000).',
    '* `editor.spellCheck`: underline unknown words (default on).',
    '',
  ].join('\n'),
  'sync.md': ['# Sync', '', 'Notes are copied to the server every minute.', '', '## Conflicts', '', 'A second copy is kept when two devices change one note.', ''].join('\n'),
  'themes.md': ['# Themes', '', 'Pick a light or a dark theme.', '', '## Fonts', '', 'The font of the editor can be changed too.', ''].join('\n'),
};

describe('camelCase identifiers in passage choice', () => {
  it('splits an identifier into its words and keeps the identifier', () => {
    expect(identifierWords('linkReferenceDefinitions')).toEqual(['linkreferencedefinitions', 'link', 'reference', 'definitions']);
    expect(identifierWords('HTMLParser')).toEqual(['htmlparser', 'html', 'parser']);
    expect(identifierWords('autoSave2')).toEqual(['autosave2', 'auto', 'save2']);
  });

  it('leaves words with no case change inside as they are', () => {
    expect(identifierWords('Editor')).toEqual(['editor']);
    expect(identifierWords('NASA')).toEqual(['nasa']);
    expect(identifierWords('interval')).toEqual(['interval']);
  });

  let notes: IndexedNotes | undefined;
  beforeAll(async () => {
    notes = await indexNotes('loci-identifier-words-', NOTES);
  }, 60_000);
  afterAll(() => notes?.close());

  it('shows the passage that names the setting when the question asks for it in words', async () => {
    const ctx = notes!.ctx;
    ctx.cache.forgetQuestions();
    const { contexts } = await lociRetriever(ctx, 'How do I change the auto save interval of the editor?', 4);
    expect(contexts[0]?.docPath).toBe('editor.md');
    expect(contexts[0]?.text).toContain('autoSaveInterval');
  });
});
