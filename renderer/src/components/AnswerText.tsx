// Renders an answer's Markdown (paragraphs, bullets, bold, code blocks a lead-in brings, tables a model
// writes) with `[n]` turned into citation buttons. Raw HTML in an answer is shown as text, never run; a
// link or an image a model writes is shown as its text: the answer's way into the notes is its citations,
// and nothing in it reaches the network.
import { useMemo } from 'react';
import Markdown, { type Components } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import type { Root } from 'mdast';
import { visit } from 'unist-util-visit';
import { rehypeCitations } from '../lib/rehype-citations.js';
import { noteMarkdownClass } from './NoteMarkdown.js';
import css from './AnswerText.module.css';

export function AnswerText({ text, onCite, known }: { text: string; onCite(n: number): void; known: Set<number> }) {
  const rehypePlugins = useMemo(() => [rehypeSanitize, [rehypeCitations, { known }]] as NonNullable<Parameters<typeof Markdown>[0]['rehypePlugins']>, [known]);
  const components = useMemo<Components>(
    () => ({
      a: ({ children }) => <span>{children}</span>,
      img: ({ alt }) => <span>{alt}</span>,
      cite: ({ node }) => {
        const n = Number(node?.properties?.dataN);
        return (
          <button type="button" className={css.cite} onClick={() => onCite(n)} aria-label={`Open source ${n}`}>
            {n}
          </button>
        );
      },
    }),
    [onCite],
  );
  return (
    <div className={`${css.answer} ${noteMarkdownClass}`}>
      <Markdown remarkPlugins={[remarkGfm, remarkHtmlAsText]} rehypePlugins={rehypePlugins} components={components}>
        {text}
      </Markdown>
    </div>
  );
}

/** Raw HTML in an answer (a model may write `<details>` while explaining it) is shown as the text it is. */
function remarkHtmlAsText() {
  return (tree: Root) => {
    visit(tree, 'html', (node) => {
      (node as unknown as { type: string }).type = 'text';
    });
  };
}
