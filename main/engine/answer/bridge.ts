// The bridge of a multi-hop question among the retrieved notes. The question names a note ("the founder
// of Kestrel Coffee Works", "an English pop singer … on A Man Without Love"); another retrieved note is
// one hop from it when either mentions the other by name ("Mara Lindqvist is the founder … of Kestrel
// Coffee Works"; the album's note: "… recorded by Engelbert Humperdinck"). What the question asks of
// that second note is what is left of it once the names and the bridging fact's words are taken out
// ("born"; "sold records worldwide").
import { hasHan } from '../text/lang.js';
import { isWordChar } from './term-match.js';

export interface BridgeNote {
  docId: number;
  title: string;
}

export interface BridgeFact {
  document_id: number;
  text: string;
}

export interface Bridge {
  /**
   * Each note one hop from a named note (not named itself), with what the question still asks of it:
   * the question's terms outside the names it mentions, less those its bridging facts already hold.
   */
  rest: Map<number, Set<string>>;
}

export const NO_BRIDGE: Bridge = { rest: new Map() };

/** "The Prestige (film)" is written "The Prestige" in running text. */
export function spokenTitle(title: string): string {
  return title.replace(/\s*\([^)]*\)\s*$/, '').trim() || title;
}

/**
 * Where a name occurs in a text as a name: at word boundaries (anywhere, for Chinese), and written with
 * a capital, a digit or a non-Latin letter there. A note titled "task" or "journal" is a topic word of
 * its notes folder, not a name a question hops through; "Vim", "Kestrel Coffee Works" and 鸠山由纪夫 are.
 */
export function mentionsName(text: string, name: string): boolean {
  if (name.length < 2) return false;
  if (hasHan(name)) return text.includes(name);
  const lower = text.toLowerCase();
  const key = name.toLowerCase();
  for (let at = lower.indexOf(key); at >= 0; at = lower.indexOf(key, at + 1)) {
    const end = at + key.length;
    if ((at > 0 && isWordChar(text, at - 1)) || (end < text.length && isWordChar(text, end))) continue;
    if (NAME_LIKE.test(text.slice(at, at + key.length))) return true;
  }
  return false;
}

const NAME_LIKE = /[\p{Lu}\p{N}]|[^\p{Script=Latin}\P{L}]/u;

/**
 * Finds the named notes among the retrieved ones, the notes one hop from them (either direction), and
 * what the question still asks of each. No bridge (an empty map) when the question names no retrieved note, none is
 * one hop away, or nothing is left to ask.
 */
export function findBridge(question: string, notes: BridgeNote[], facts: BridgeFact[], termsIn: (text: string) => Set<string>): Bridge {
  const spoken = new Map(notes.map((n) => [n.docId, spokenTitle(n.title)]));
  const named = new Map([...spoken].filter(([, title]) => mentionsName(question, title)));
  if (named.size === 0) return NO_BRIDGE;
  // What is asked outside the names: "born" in "… Natural Born Killers was produced by a man born in …".
  const asked = termsIn(withoutNames(question, [...named.values()]));
  const rest = new Map<number, Set<string>>();
  for (const f of facts) {
    const hops: number[] = [];
    if (named.has(f.document_id)) {
      // Forward: the named note mentions another retrieved note ("… stars Palash Sen").
      for (const [docId, title] of spoken) if (!named.has(docId) && mentionsName(f.text, title)) hops.push(docId);
    } else if ([...named.values()].some((title) => mentionsName(f.text, title))) {
      // Backward: another note mentions the named one ("… the founder of Kestrel Coffee Works").
      hops.push(f.document_id);
    }
    // The bridging fact answers "founder"; what is left ("born") is asked of the note it leads to. Its
    // names are not what it answers ("Natural Born Killers" does not answer "born"), and it answers
    // only for the note it leads to: a third note naming the film answers nothing about the producer.
    for (const d of hops) {
      const left = rest.get(d) ?? new Set(asked);
      for (const t of termsIn(withoutNames(f.text, [...named.values(), spoken.get(d)!]))) left.delete(t);
      rest.set(d, left);
    }
  }
  for (const [d, left] of rest) if (left.size === 0) rest.delete(d);
  return rest.size ? { rest } : NO_BRIDGE;
}

/** The text with every mention of the names blanked out. */
function withoutNames(text: string, names: string[]): string {
  let out = text;
  for (const name of names) {
    if (name.length < 2) continue;
    const lower = out.toLowerCase();
    const key = name.toLowerCase();
    let rebuilt = '';
    let from = 0;
    for (let at = lower.indexOf(key); at >= 0; at = lower.indexOf(key, at + key.length)) {
      rebuilt += `${out.slice(from, at)} `;
      from = at + key.length;
    }
    out = rebuilt + out.slice(from);
  }
  return out;
}
