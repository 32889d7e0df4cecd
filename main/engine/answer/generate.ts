// Generated answers (DESIGN §6): the retrieved contexts become numbered sources grouped by note, the
// model answers citing [n], and any citation to a number that was not given is removed — from the
// stream as it is produced and from the final text — and counted. The finished text is then grounded
// (grounding.ts): citations corrected sentence by sentence, unsupported sentences flagged. Also: key points for pgr.
import { answerPrompt, detectLang, keyPointsPrompt, promptLang, type PromptLang } from '../llm/prompts/index.js';
import { keyPointsOutput } from '../llm/prompts/schemas.js';
import type { Embedder } from '../embed/embedder.js';
import type { LlmProvider } from '../llm/provider.js';
import { generateStructured } from '../llm/structured.js';
import type { Lang, RetrievedContext } from '../types.js';
import type { SentenceSupport } from '../api.js';
import { groundAnswer } from './grounding.js';
import { clipped, sourceWindow } from './source-window.js';
import { termMatcher, type TermMatcher } from './term-match.js';

export interface GenerateAnswerOptions {
  onToken?: (t: string) => void;
  signal?: AbortSignal;
  lang?: Lang | PromptLang;
  maxTokens?: number;
  timeoutMs?: number;
  /** Longest text shown per source (characters). */
  maxSourceChars?: number;
  /** The question's analysed terms: a longer source is shown by its part that holds most of them (source-window.ts). */
  terms?: string[];
  /** The index's embedder, for grounding by meaning as well as by words. */
  embedder?: Embedder;
}

export interface GeneratedAnswer {
  text: string;
  /** Source numbers cited, in order of first citation; n refers to contexts[n - 1]. */
  citations: number[];
  /** Citations to sources that were not given, removed from the text. */
  dropped: number;
  tokens: number;
  /** Per sentence: the sources that support it and how well (the text's citations are these). */
  support: SentenceSupport[];
}

/** What a source may take of the answer prompt, in characters. */
export const SOURCE_CHARS = 600;

/**
 * Sources numbered by their position in `contexts` (so [n] ↔ contexts[n-1]), grouped under their note.
 * A source's text longer than `maxChars` is shown by its part that holds most of the question's terms.
 */
export function formatSources(contexts: RetrievedContext[], maxChars = SOURCE_CHARS, matcher?: TermMatcher): string {
  const groups = new Map<string, { title: string; lines: string[] }>();
  contexts.forEach((c, i) => {
    const g = groups.get(c.docPath) ?? { title: c.docTitle || c.docPath, lines: [] };
    const head = c.factPath ? clipped(c.factPath, maxChars) : sourceWindow(c.text, maxChars, matcher);
    const body = c.factPath && c.text && !c.factPath.includes(c.text) ? `\n    ${sourceWindow(c.text, maxChars, matcher)}` : '';
    g.lines.push(`[${i + 1}] ${head} (lines ${c.lineFrom}–${c.lineTo})${body}`);
    groups.set(c.docPath, g);
  });
  return [...groups.entries()].map(([path, g]) => `Note: ${g.title} (${path})\n${g.lines.join('\n')}`).join('\n\n');
}

export async function generateAnswer(
  llm: LlmProvider,
  question: string,
  contexts: RetrievedContext[],
  opts: GenerateAnswerOptions = {},
): Promise<GeneratedAnswer> {
  const lang = opts.lang ? promptLang(opts.lang) : detectLang(question);
  const built = answerPrompt(lang, question, formatSources(contexts, opts.maxSourceChars, opts.terms ? termMatcher(opts.terms) : undefined));
  const filter = new CitationFilter(contexts.length, opts.onToken);
  const res = await llm.generate({
    system: built.system,
    prompt: built.prompt,
    maxTokens: opts.maxTokens ?? 512,
    temperature: 0,
    // A small model that has answered tends to repeat its last line until the bound: end it there.
    stopOnLoop: true,
    signal: opts.signal,
    timeoutMs: opts.timeoutMs,
    onToken: (t) => filter.push(t),
  });
  filter.end();
  const cleaned = cleanCitations(res.text, contexts.length);
  const grounded = await groundAnswer(cleaned.text.trim(), contexts, { embedder: opts.embedder });
  return { text: grounded.text, citations: grounded.citations, dropped: cleaned.dropped, tokens: res.tokens, support: grounded.support };
}

const CITATION = /\[(\d+(?:\s*[,，;]\s*\d+)*)\]/g;

/** Keeps citations to sources 1..given, removes the rest; returns the numbers kept and how many were dropped. */
export function cleanCitations(text: string, given: number): { text: string; citations: number[]; dropped: number } {
  const citations: number[] = [];
  let dropped = 0;
  const out = text.replace(CITATION, (_m, list: string) => {
    const nums = list.split(/\s*[,，;]\s*/).map(Number);
    const ok = nums.filter((n) => Number.isInteger(n) && n >= 1 && n <= given);
    dropped += nums.length - ok.length;
    for (const n of ok) if (!citations.includes(n)) citations.push(n);
    return ok.map((n) => `[${n}]`).join('');
  });
  return { text: out.replace(/ +([.,;:!?。，])/g, '$1').replace(/ {2,}/g, ' '), citations, dropped };
}

/** Streams text through, holding back a possible citation until it is complete, then cleaning it. */
class CitationFilter {
  private held = '';
  constructor(private readonly given: number, private readonly sink?: (t: string) => void) {}

  push(t: string): void {
    if (!this.sink) return;
    this.held += t;
    const open = this.held.lastIndexOf('[');
    // Everything before an unfinished "[12, 3" can go out now.
    const unfinished = open >= 0 && !this.held.slice(open).includes(']') && /^\[[\d\s,，;]*$/.test(this.held.slice(open));
    const ready = unfinished ? this.held.slice(0, open) : this.held;
    this.held = unfinished ? this.held.slice(open) : '';
    if (ready) this.sink(cleanCitations(ready, this.given).text);
  }

  end(): void {
    if (this.sink && this.held) this.sink(cleanCitations(this.held, this.given).text);
    this.held = '';
  }
}

/** PG-RAG's key points: what an answer needs, used by pgr as pseudo-answers. Empty when the model's output never validates; throws when the model cannot answer. */
export async function keyPoints(
  llm: LlmProvider,
  question: string,
  opts: { signal?: AbortSignal; timeoutMs?: number; lang?: Lang | PromptLang } = {},
): Promise<string[]> {
  const lang = opts.lang ? promptLang(opts.lang) : detectLang(question);
  const r = await generateStructured(llm, keyPointsPrompt(lang, question), keyPointsOutput, {
    maxTokens: 512,
    retries: 1,
    signal: opts.signal,
    timeoutMs: opts.timeoutMs,
  });
  if (!r.ok) return [];
  return [...new Set(r.value.keyPoints.map((k) => k.replace(/\s+/g, ' ').trim()).filter((k) => k.length >= 3))];
}
