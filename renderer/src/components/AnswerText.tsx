// Renders an answer's Markdown-ish text (paragraphs, bullets, **bold**) with `[n]` turned into
// citation buttons. No HTML from the engine is ever injected.
import { Fragment, type ReactNode } from 'react';
import css from './AnswerText.module.css';

export function AnswerText({ text, onCite, known }: { text: string; onCite(n: number): void; known: Set<number> }) {
  const blocks = text.split(/\n{2,}/);
  return (
    <div className={css.answer}>
      {blocks.map((block, i) => {
        const lines = block.split('\n');
        if (lines.every((l) => /^\s*([-*]|\d+\.)\s/.test(l) || !l.trim())) {
          return (
            <ul key={i}>
              {lines.filter((l) => l.trim()).map((l, j) => (
                <li key={j}>{inline(l.replace(/^\s*([-*]|\d+\.)\s/, ''), onCite, known)}</li>
              ))}
            </ul>
          );
        }
        return <p key={i}>{lines.map((l, j) => <Fragment key={j}>{j > 0 && <br />}{inline(l, onCite, known)}</Fragment>)}</p>;
      })}
    </div>
  );
}

function inline(text: string, onCite: (n: number) => void, known: Set<number>): ReactNode[] {
  return text.split(/(\[\d+\]|\*\*[^*]+\*\*)/).map((part, i) => {
    const cite = /^\[(\d+)\]$/.exec(part);
    if (cite) {
      const n = Number(cite[1]);
      if (!known.has(n)) return <Fragment key={i}>{part}</Fragment>;
      return (
        <button key={i} type="button" className={css.cite} onClick={() => onCite(n)} aria-label={`Open source ${n}`}>
          {n}
        </button>
      );
    }
    if (/^\*\*[^*]+\*\*$/.test(part)) return <strong key={i}>{part.slice(2, -2)}</strong>;
    return <Fragment key={i}>{part}</Fragment>;
  });
}
