// Renders an answer's Markdown (paragraphs, bullets, bold, code blocks a lead-in brings, tables a model
// writes) with `[n]` turned into citation buttons. Raw HTML in an answer is shown as text, never run; a
// link or an image a model writes is shown as its text: the answer's way into the notes is its citations,
// and nothing in it reaches the network.
import { useMemo } from 'react';
import Markdown, { type Components } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import type { Root } from 'mdast';
import { SKIP, visit } from 'unist-util-visit';
import { hideEscapedBrackets, rehypeCitations, rehypeEscapedBrackets } from '../lib/rehype-citations.js';
import { rehypeUnsupported, withUnsupportedMarks } from '../lib/rehype-unsupported.js';
import { noteMarkdownClass } from './NoteMarkdown.js';
import { capNesting } from '../lib/cap-nesting.js';
import css from './AnswerText.module.css';

/** `support`: a generated answer's sentences; those no source supports get a subtle "not found in your notes" mark. */
export function AnswerText({ text, onCite, known, support }: { text: string; onCite(n: number): void; known: Set<number>; support?: readonly { end: number; supported: boolean }[] }) {
  const rehypePlugins = useMemo(() => [rehypeSanitize, [rehypeCitations, { known }], rehypeEscapedBrackets, rehypeUnsupported] as NonNullable<Parameters<typeof Markdown>[0]['rehypePlugins']>, [known]);
  const components = useMemo<Components>(
    () => ({
      a: ({ children }) => <span>{children}</span>,
      img: ({ alt }) => <span>{alt}</span>,
      abbr: () => (
        <abbr className={css.unsupported} title="No passage of your notes supports this sentence" data-testid="unsupported">
          not found in your notes
        </abbr>
      ),
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
      <Markdown remarkPlugins={[remarkGfm, remarkHtmlAsText, remarkReferencesAsText]} rehypePlugins={rehypePlugins} components={components}>
        {capNesting(hideEscapedBrackets(withUnsupportedMarks(text, support)))}
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

/**
 * A model may list its sources as `[1]: Kestrel.md`, which Markdown reads as a link definition: the line
 * would vanish, and every `[1]` in the answer would become a link to it and lose its brackets (and so its
 * citation). Definitions and the references they resolve are shown as written.
 */
function remarkReferencesAsText() {
  return (tree: Root, file: { value: unknown }) => {
    const source = String(file.value);
    const written = (node: { position?: { start: { offset?: number }; end: { offset?: number } } }) =>
      source.slice(node.position?.start.offset ?? 0, node.position?.end.offset ?? 0);
    visit(tree, (node, index, parent) => {
      if (!parent || index === undefined) return;
      if (node.type === 'definition') {
        parent.children.splice(index, 1, { type: 'paragraph', children: [{ type: 'text', value: written(node) }] } as never);
        return [SKIP, index + 1];
      }
      if (node.type === 'linkReference' || node.type === 'imageReference') {
        parent.children.splice(index, 1, { type: 'text', value: written(node) } as never);
        return [SKIP, index + 1];
      }
    });
  };
}
