import type { RetrievalMethod } from '../types.js';
import { METHOD_NAMES, methodEntry } from './registry.js';

/** `--explain` as text: the registry's explain for the method that produced the explanation. */
export function formatExplanation(x: unknown): string {
  const method = (x as { method?: string } | undefined)?.method;
  const explain = METHOD_NAMES.includes(method as RetrievalMethod) ? methodEntry(method as RetrievalMethod).explain : null;
  if (explain) return explain(x);
  const explained = METHOD_NAMES.filter((m) => methodEntry(m).explain);
  return `This method ranks passages directly (no graph walk to explain); try --method ${explained.join(', ')}.`;
}
