import { describe, expect, it } from 'vitest';
import { formatSources } from '../../main/engine/answer/generate.js';
import { sourceWindow } from '../../main/engine/answer/source-window.js';
import { termMatcher } from '../../main/engine/answer/term-match.js';
import type { RetrievedContext } from '../../main/engine/types.js';

// A section span as loci shows it: the heading's opening lines, then the passage the question matched.
const opening = Array.from({ length: 8 }, (_, i) => `Paragraph ${i + 1} describes the general layout of the space and how pages are stored on disk.`).join('\n');
const answer = 'Set SB_READ_ONLY to any value to run the server in read-only mode.';
const span = `${opening}\n\n${answer}\n\nAfter that, nothing else is said here.`;

describe('what a model reads of a long source (sourceWindow)', () => {
  it('leaves a source that fits as it is, whitespace collapsed', () => {
    expect(sourceWindow('Short   passage\nof two lines.', 600, termMatcher(['passage']))).toBe('Short passage of two lines.');
  });

  it('reads the run of sentences that holds the question’s terms, marked where text was left out', () => {
    expect(span.length).toBeGreaterThan(600);
    const read = sourceWindow(span, 600, termMatcher(['read', 'only', 'server']));
    expect(read).toContain(answer);
    expect(read.startsWith('…')).toBe(true);
    expect(read.length).toBeLessThanOrEqual(600);
    // Whole sentences only: the window starts where a sentence starts.
    expect(read.slice(1)).toMatch(/^Paragraph \d+ describes|^Set SB_READ_ONLY/);
    // Before: the opening 600 characters, which miss it.
    expect(sourceWindow(span, 600)).not.toContain('SB_READ_ONLY');
  });

  it('keeps the opening when it holds the terms as well as any other part, or when nothing holds them', () => {
    const first = sourceWindow(span, 600, termMatcher(['layout', 'pages']));
    expect(first).toBe(sourceWindow(span, 600));
    expect(first.startsWith('Paragraph 1')).toBe(true);
    expect(first.endsWith('…')).toBe(true);
    expect(sourceWindow(span, 600, termMatcher(['penguin']))).toBe(first);
  });

  it('reads a Chinese article by its sentences too', () => {
    const filler = '本市今年继续推进老旧小区改造工作，各区按计划完成了排查和设计。'.repeat(12);
    const article = `${filler}据统计，全市共新增停车位三千二百个。${filler}`;
    const read = sourceWindow(article, 200, termMatcher(['停车位', '新增']));
    expect(read).toContain('全市共新增停车位三千二百个');
    expect(read.length).toBeLessThanOrEqual(200);
  });

  it('formatSources shows a long chunk by its matching part, and a fact path whole as before', () => {
    const ctx = (n: number, factPath: string | null, text: string): RetrievedContext => ({
      text,
      docId: n,
      docPath: 'Install/Configuration.md',
      docTitle: 'Configuration',
      lineFrom: n,
      lineTo: n + 12,
      factPath,
      score: 1,
      kind: factPath ? 'fact-path' : 'chunk',
    });
    const sources = formatSources([ctx(1, null, span), ctx(20, 'Configuration › Run mode › Read-only', 'Read-only mode.')], 600, termMatcher(['read', 'only', 'server']));
    expect(sources).toContain(answer);
    expect(sources).toContain('[2] Configuration › Run mode › Read-only (lines 20–32)');
    expect(formatSources([ctx(1, null, span)], 600)).not.toContain('SB_READ_ONLY');
  });
});
