import { getNlp } from './nlp.js';

export interface SentenceEntity {
  name: string;
  /** 'proper' (a proper-noun sequence), 'concept' (a compound noun), 'known' (a note title or link target), or a wink-nlp type (DATE, MONEY). */
  type: string;
}

export interface SentenceTriple {
  subject: string;
  relation: string;
  object: string;
}

export interface SentenceContext {
  /**
   * Names this note is known to mention (its title, its link targets). They are matched as whole
   * phrases, because the tagger splits names made of common words ("Kestrel Coffee Works" → a verb).
   */
  knownNames?: string[];
  /** What a sentence-initial "it/he/she/they" refers to, when the caller is sure of it. */
  pronounSubject?: string | null;
}

interface Token {
  value: string;
  /** Whitespace before the token in the sentence, to rebuild phrases as written ("$120"). */
  space: string;
  pos: string;
  /** Only for verbs and auxiliaries ('' otherwise): nothing else reads it. */
  lemma: string;
  /** wink-nlp named-entity type when the token is inside one (DATE, MONEY, …). */
  ent: string | null;
  /** Index of the known name that starts at this token, and the token it ends at. */
  knownEnd: number | null;
}

interface Phrase {
  /** Where the run began, before leading adjectives were dropped: objects are looked up from here. */
  runStart: number;
  start: number;
  end: number;
  text: string;
  /** The run with its leading adjectives, for triple objects ("extensible note"). */
  fullText: string;
  hasProper: boolean;
  known: boolean;
}

const PHRASE_POS = new Set(['PROPN', 'NOUN', 'ADJ', 'NUM']);
const HEAD_POS = new Set(['PROPN', 'NOUN', 'NUM']);
const CLAUSE_END_POS = new Set(['PUNCT', 'CCONJ', 'SCONJ', 'VERB', 'AUX', 'PRON']);
/** Named-entity types worth keeping as entities on their own; counts and durations are not. */
const ENTITY_TYPES = new Set(['DATE', 'MONEY']);
const SUBJECT_PRONOUNS = new Set(['it', 'he', 'she', 'they']);
const MAX_OBJECTS_PER_VERB = 3;

/**
 * Reads one English sentence with wink-nlp and returns the entities in it (proper-noun sequences,
 * compound nouns, known names, dates) and subject–verb–object triples. Only patterns that hold up
 * are taken: a subject is a noun phrase right before the verb, an object a noun phrase right after
 * it or after one preposition.
 */
export function analyseSentence(
  sentence: string,
  context: SentenceContext = {},
): { entities: SentenceEntity[]; triples: SentenceTriple[] } {
  const tokens = tokenize(sentence);
  markKnownNames(tokens, context.knownNames ?? []);
  const phrases = findPhrases(tokens);
  if (context.pronounSubject && tokens.length > 1 && SUBJECT_PRONOUNS.has(tokens[0]!.value.toLowerCase())) {
    phrases.unshift({
      runStart: 0,
      start: 0,
      end: 0,
      text: context.pronounSubject,
      fullText: context.pronounSubject,
      hasProper: true,
      known: true,
    });
  }
  return { entities: phraseEntities(tokens, phrases), triples: findTriples(tokens, phrases) };
}

function tokenize(sentence: string): Token[] {
  const nlp = getNlp();
  const its = nlp.its;
  const doc = nlp.readDoc(sentence);
  const all = doc.tokens();
  const values = all.out() as string[];
  const pos = all.out(its.pos) as string[];
  const spaces = all.out(its.precedingSpaces as never) as string[];
  // wink-nlp's out() arrays are parallel to the tokens, one entry per token. Only verb groups read a
  // lemma (readVerbGroup), so only verbs and auxiliaries are lemmatised.
  const tokens: Token[] = values.map((value, i) => ({
    value,
    space: spaces[i]!,
    pos: pos[i]!,
    lemma: pos[i] === 'VERB' || pos[i] === 'AUX' ? (all.itemAt(i).out(its.lemma as never) as string) : '',
    ent: null,
    knownEnd: null,
  }));
  const spans = doc.entities().out(its.span) as unknown as [number, number][];
  const types = doc.entities().out(its.type) as string[];
  spans.forEach(([from, to], k) => {
    for (let i = from; i <= to; i++) tokens[i]!.ent = types[k]!;
  });
  return tokens;
}

/**
 * A note's known names as lowercase words, longest first (so "Colombia Huila Washed" wins over
 * "Colombia"), by first word. The caller passes the same list for every sentence of a note, so it is
 * prepared once per list rather than once per sentence.
 */
const preparedNames = new WeakMap<string[], Map<string, string[][]>>();

function namesByFirstWord(names: string[]): Map<string, string[][]> {
  let byFirst = preparedNames.get(names);
  if (byFirst) return byFirst;
  const sorted = names
    .map((n) => n.toLowerCase().split(/\s+/).filter(Boolean))
    .filter((words) => words.length > 0)
    .sort((a, b) => b.length - a.length);
  byFirst = new Map();
  for (const words of sorted) {
    const list = byFirst.get(words[0]!);
    if (list) list.push(words);
    else byFirst.set(words[0]!, [words]);
  }
  preparedNames.set(names, byFirst);
  return byFirst;
}

function markKnownNames(tokens: Token[], names: string[]): void {
  if (names.length === 0) return;
  const lower = tokens.map((t) => t.value.toLowerCase());
  const byFirst = namesByFirstWord(names);
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.knownEnd !== null) continue;
    // Only names starting with this token's word can match here; among them, longest first as before.
    for (const words of byFirst.get(lower[i]!) ?? []) {
      const end = i + words.length - 1;
      if (end >= tokens.length) continue;
      let match = true;
      for (let k = 0; k < words.length && match; k++) match = lower[i + k] === words[k];
      if (match) {
        tokens[i]!.knownEnd = end;
        i = end;
        break;
      }
    }
  }
}

/** Maximal runs of adjectives, nouns, proper nouns and numbers that end in a noun or number. */
function findPhrases(tokens: Token[]): Phrase[] {
  const phrases: Phrase[] = [];
  let i = 0;
  while (i < tokens.length) {
    const knownEnd = tokens[i]!.knownEnd;
    if (knownEnd !== null) {
      const text = joinTokens(tokens.slice(i, knownEnd + 1));
      phrases.push({ runStart: i, start: i, end: knownEnd, text, fullText: text, hasProper: true, known: true });
      i = knownEnd + 1;
      continue;
    }
    if (!inPhrase(tokens, i)) {
      i++;
      continue;
    }
    let end = i;
    while (
      end + 1 < tokens.length &&
      tokens[end + 1]!.knownEnd === null &&
      (inPhrase(tokens, end + 1) || isNameJoiner(tokens, end + 1))
    ) {
      end++;
    }
    let last = end;
    while (last >= i && !HEAD_POS.has(tokens[last]!.pos) && !tokens[last]!.ent) last--;
    let first = i;
    // A lowercase adjective in front ("additional metadata") describes, it doesn't name; but the
    // first half of a hyphenated compound ("natural-process") stays.
    while (
      first < last &&
      tokens[first]!.pos === 'ADJ' &&
      !/^\p{Lu}/u.test(tokens[first]!.value) &&
      tokens[first + 1]!.value !== '-'
    ) {
      first++;
    }
    if (last >= first) {
      const slice = tokens.slice(first, last + 1);
      phrases.push({
        runStart: i,
        start: first,
        end: last,
        text: joinTokens(slice),
        fullText: joinTokens(tokens.slice(i, last + 1)),
        hasProper: slice.some((t) => t.pos === 'PROPN'),
        known: false,
      });
    }
    i = end + 1;
  }
  return phrases;
}

function joinTokens(tokens: Token[]): string {
  return tokens.map((t, k) => (k === 0 ? t.value : (t.space ? ' ' : '') + t.value)).join('');
}

/** Function words inside a recognised entity ("over six weeks") still end a noun phrase. */
const NEVER_IN_PHRASE_POS = new Set(['ADP', 'DET', 'CCONJ', 'SCONJ', 'PART', 'PRON', 'VERB', 'AUX', 'PUNCT']);

function inPhrase(tokens: Token[], i: number): boolean {
  const t = tokens[i]!;
  if (t.ent !== null && !NEVER_IN_PHRASE_POS.has(t.pos)) return true;
  return PHRASE_POS.has(t.pos) && /[\p{L}\p{N}]/u.test(t.value);
}

/** "of" inside a name ("Bank of England") or a hyphen inside a compound ("note-taking"). */
function isNameJoiner(tokens: Token[], i: number): boolean {
  const prev = tokens[i - 1];
  const next = tokens[i + 1];
  if (!prev || !next) return false;
  const t = tokens[i]!.value.toLowerCase();
  if (t === 'of') return prev.pos === 'PROPN' && next.pos === 'PROPN';
  return t === '-' && !tokens[i]!.space && !next.space && inPhrase(tokens, i - 1) && inPhrase(tokens, i + 1);
}

function phraseEntities(tokens: Token[], phrases: Phrase[]): SentenceEntity[] {
  const out: SentenceEntity[] = [];
  for (const p of phrases) {
    if (p.known) {
      out.push({ name: p.text, type: 'known' });
      continue;
    }
    const words = tokens.slice(p.start, p.end + 1);
    if (words.length > 6) continue;
    const entTypes = new Set(words.map((w) => w.ent));
    if (entTypes.size === 1 && !entTypes.has(null)) {
      if (ENTITY_TYPES.has(words[0]!.ent!)) out.push({ name: p.text, type: words[0]!.ent! });
      continue;
    }
    const proper = properRun(words, p.start);
    if (proper) out.push({ name: proper, type: 'proper' });
    else if (words.filter((w) => w.pos === 'NOUN').length >= 2 && !words.some((w) => w.ent)) {
      out.push({ name: p.text, type: 'concept' });
    }
  }
  return out.filter((e) => (e.name.match(/\p{L}|\p{N}/gu)?.length ?? 0) >= 2);
}

/**
 * The proper-noun part of a phrase ("the method Mara Lindqvist" → "Mara Lindqvist"). A lone
 * sentence-initial capitalised word is a name only if it is written like one (all caps, or a capital
 * inside: "SilverBullet"); contractions ("I’m") never are.
 */
function properRun(words: Token[], phraseStart: number): string | null {
  let best: Token[] = [];
  let bestStart = -1;
  for (let i = 0; i < words.length; i++) {
    if (words[i]!.pos !== 'PROPN') continue;
    let j = i;
    while (j + 1 < words.length && (words[j + 1]!.pos === 'PROPN' || (words[j + 1]!.value === 'of' && words[j + 2]?.pos === 'PROPN'))) j++;
    if (j - i + 1 > best.length) {
      best = words.slice(i, j + 1);
      bestStart = i;
    }
    i = j;
  }
  if (best.length === 0 || !best.some((w) => /\p{Lu}/u.test(w.value))) return null;
  if (best.some((w) => /['’]/.test(w.value))) return null;
  if (best.length === 1 && phraseStart + bestStart === 0) {
    const w = best[0]!.value;
    if (!/^\p{Lu}{2,}$/u.test(w) && !/^.\p{Ll}*\p{Lu}/u.test(w)) return null;
  }
  return joinTokens(best);
}

function findTriples(tokens: Token[], phrases: Phrase[]): SentenceTriple[] {
  const triples: SentenceTriple[] = [];
  const phraseEndingAt = new Map(phrases.map((p) => [p.end, p]));
  const phraseStartingAt = new Map(phrases.map((p) => [p.runStart, p]));
  // "X is a 2012 film directed by Y": the film of the copula *is* X, so the participle's triple is
  // stated about X.
  const copulaSubjectOf = new Map<Phrase, string>();

  /** Objects after a verb: a noun phrase, or one after a preposition, repeated for "… in A in 2002". */
  const addObjects = (subject: string, relation: string, from: number): void => {
    let j = from;
    let objects = 0;
    while (j < tokens.length && objects < MAX_OBJECTS_PER_VERB) {
      let prep = '';
      if (tokens[j]!.pos === 'ADP' || (tokens[j]!.pos === 'PART' && tokens[j]!.value.toLowerCase() === 'to')) {
        prep = tokens[j]!.value.toLowerCase();
        j++;
      }
      while (j < tokens.length && (tokens[j]!.pos === 'DET' || tokens[j]!.pos === 'ADV')) j++;
      const object = phraseStartingAt.get(j);
      if (!object) break;
      triples.push({ subject, relation: prep ? `${relation} ${prep}` : relation, object: object.fullText });
      if (relation === 'is' && !prep) copulaSubjectOf.set(object, subject);
      objects++;
      j = object.end + 1;
      // Only a further preposition continues the verb; "of" belongs to the noun before it.
      if (j >= tokens.length || CLAUSE_END_POS.has(tokens[j]!.pos) || tokens[j]!.pos !== 'ADP') break;
      if (tokens[j]!.value.toLowerCase() === 'of') break;
    }
  };

  for (let i = 0; i < tokens.length; i++) {
    // "Christopher Nolan (born 30 July 1970 in London)": the parenthesis states a birth.
    if (tokens[i]!.value === '(' && tokens[i + 1]?.value.toLowerCase() === 'born') {
      const person = phraseEndingAt.get(i - 1);
      if (person?.hasProper) addObjects(person.text, 'born', i + 2);
      continue;
    }
    if (!(tokens[i]!.pos === 'VERB' || tokens[i]!.pos === 'AUX')) continue;
    let before = i - 1;
    while (before >= 0 && tokens[before]!.pos === 'ADV') before--;
    const phrase = phraseEndingAt.get(beforeParenthesis(tokens, before));
    if (!phrase) continue;
    if (!phrase.known && !phrase.hasProper && !tokens.slice(phrase.start, phrase.end + 1).some((t) => t.pos === 'NOUN')) {
      continue;
    }
    const group = readVerbGroup(tokens, i);
    if (!group) continue;
    addObjects(copulaSubjectOf.get(phrase) ?? phrase.text, group.relation, group.end + 1);
    i = group.end;
  }
  return triples;
}

/** The index before a parenthesis that ends at `end` ("Nolan (born 1970) is …"), else `end`. */
function beforeParenthesis(tokens: Token[], end: number): number {
  if (tokens[end]?.value !== ')') return end;
  for (let k = end - 1; k >= 0; k--) if (tokens[k]!.value === '(') return k - 1;
  return end;
}

/**
 * AUX* (ADV|PART)* VERB? — the relation is the verb's lemma for active verbs, the participle for
 * passives ("founded by"), and "is"/"has" for a bare auxiliary; a negation is kept ("not use").
 */
function readVerbGroup(tokens: Token[], start: number): { end: number; relation: string } | null {
  let k = start;
  let negated = false;
  let beAux = false;
  const auxLemmas: string[] = [];
  while (k < tokens.length && (tokens[k]!.pos === 'AUX' || tokens[k]!.pos === 'ADV' || tokens[k]!.pos === 'PART')) {
    const t = tokens[k]!;
    if (t.pos === 'PART' && /^(not|n't|never)$/i.test(t.value)) negated = true;
    if (t.pos === 'PART' && t.value.toLowerCase() === 'to') break;
    if (t.pos === 'AUX') {
      auxLemmas.push(t.lemma);
      if (t.lemma === 'be') beAux = true;
    }
    k++;
  }
  let relation: string;
  let end: number;
  if (k < tokens.length && tokens[k]!.pos === 'VERB') {
    const verb = tokens[k]!;
    // A bare -ing form after a noun is a modifier ("note taking app"), not the sentence's verb.
    if (auxLemmas.length === 0 && /ing$/i.test(verb.value)) return null;
    // Passive with "be", or a bare participle followed by "by" ("a film directed by …").
    const passive =
      (beAux && !/ing$/i.test(verb.value)) ||
      (auxLemmas.length === 0 && /ed$/i.test(verb.value) && tokens[k + 1]?.value.toLowerCase() === 'by');
    relation = passive ? verb.value.toLowerCase() : verb.lemma.toLowerCase();
    end = k;
  } else if (auxLemmas.includes('be')) {
    relation = 'is';
    end = k - 1;
  } else if (auxLemmas.includes('have')) {
    relation = 'has';
    end = k - 1;
  } else {
    return null;
  }
  if (!/\p{L}/u.test(relation)) return null;
  return { end, relation: negated ? `not ${relation}` : relation };
}
