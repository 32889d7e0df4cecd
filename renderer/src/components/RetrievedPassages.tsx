// The passages retrieval found for an answer, in its order: what the answer was drawn from. Without a
// model the answer is a handful of facts, while the passages hold the answer more often (on the
// documentation dev sets, 82% of the reference answer's words are in loci's first five passages and 58%
// in its extractive answer), so the user can read them, rendered as the note viewer renders the note, each
// opening its note at its lines.
import { useMemo } from 'react';
import type { Res } from '../../../main/contract/contract.js';
import { lineRange, plural } from '../lib/format.js';
import { NoteMarkdown, noteMarkdownClass, type RehypePlugins } from './NoteMarkdown.js';
import { rehypeMarkWords } from '../lib/rehype-mark-words.js';
import { ui } from './ui.js';
import { PathTitle } from './PathTitle.js';
import css from './RetrievedPassages.module.css';

type Context = Res<'ask'>['contexts'][number];
type Citation = Res<'ask'>['citations'][number];

/** The answer's citations whose lines lie within the passage's. */
function citedIn(c: Context, citations: Citation[]): number[] {
  return citations.filter((x) => (x.docId === undefined ? x.docPath === c.docPath : x.docId === c.docId) && c.lineFrom <= x.lineFrom && x.lineTo <= c.lineTo).map((x) => x.n);
}

/** `matchKeys`: how the question's words are matched (answer.matchKeys); they are marked in the passages. */
export function RetrievedPassages({ contexts, citations, matchKeys, onOpen }: { contexts: Context[]; citations: Citation[]; matchKeys: string[]; onOpen: (c: Context) => void }) {
  const marks = useMemo(() => [[rehypeMarkWords, { keys: matchKeys }]] as RehypePlugins, [matchKeys]);
  if (contexts.length === 0) return null;
  return (
    <details className={ui.disclosure} data-testid="answer-passages">
      <summary>{plural(contexts.length, 'passage')} retrieved</summary>
      <ol className={css.list}>
        {contexts.map((c, i) => {
          const cited = citedIn(c, citations);
          return (
            <li key={`${c.docId}:${c.lineFrom}:${i}`} className={css.item} data-testid="passage">
              <button type="button" className={css.open} onClick={() => onOpen(c)} title="Open the note at these lines">
                <PathTitle path={c.factPath ?? c.docTitle} />
                <span className={ui.sourceLines} data-testid="passage-source">
                  {c.docPath} · {lineRange(c.lineFrom, c.lineTo)}
                  {cited.length > 0 && <span data-testid="passage-cites"> · holds {cited.map((n) => `[${n}]`).join(' ')}</span>}
                </span>
              </button>
              <div className={`${css.text} ${noteMarkdownClass}`}>
                <NoteMarkdown docPath={c.docPath} text={c.text} rehypePlugins={marks} />
              </div>
            </li>
          );
        })}
      </ol>
    </details>
  );
}
