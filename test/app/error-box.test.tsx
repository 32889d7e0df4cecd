// Errors as people read them: what happened and what to do, with the call's own message behind "Details".
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ErrorBox } from '../../renderer/src/components/ui.js';
import { LociCallError } from '../../main/contract/errors.js';

const html = (error: unknown) => renderToStaticMarkup(<ErrorBox error={error} />);

describe('ErrorBox', () => {
  it('says what was not accepted and what to do, the contract message only under Details', () => {
    const raw = 'loci call "library.index": invalid request — root: the folder path is empty';
    const out = html(new LociCallError({ kind: 'contract', call: 'library.index', message: raw, issues: [{ path: 'root', message: 'the folder path is empty' }] }));
    expect(out).toContain('<p class="');
    expect(out).toMatch(/>That was not accepted: the folder path is empty\.<\/p>/);
    expect(out).toMatch(/>Check what you entered and try again\.<\/p>/);
    expect(out).toMatch(/<details[^>]*><summary>Details<\/summary><pre>loci call &quot;library\.index&quot;: invalid request — root: the folder path is empty<\/pre><\/details>/);
    // The internals appear only inside the details.
    expect(out.replace(/<details[\s\S]*<\/details>/, '')).not.toContain('loci call');
  });

  it("keeps the engine's own sentence for a missing note, and hides an internal failure's text behind Details", () => {
    const missing = html(new LociCallError({ kind: 'engine', code: 'not_found', call: 'notes.text', message: `loci call "notes.text" failed: No indexed note 'a.md'.` }));
    expect(missing).toMatch(/>No indexed note &#x27;a\.md&#x27;\.<\/p>/);
    expect(missing).toContain('re-index its folder');
    const internal = html(new LociCallError({ kind: 'engine', code: 'internal', call: 'ask', message: 'loci call "ask" failed: SqliteError: disk I/O error' }));
    expect(internal).toMatch(/>Something went wrong inside Loci\.<\/p>/);
    expect(internal).toMatch(/<summary>Details<\/summary><pre>loci call &quot;ask&quot; failed: SqliteError: disk I\/O error<\/pre>/);
  });

  it('shows a plain error as it is, with no Details', () => {
    const out = html(new Error('The folder does not exist.'));
    expect(out).toContain('The folder does not exist.');
    expect(out).not.toContain('Details');
  });
});
