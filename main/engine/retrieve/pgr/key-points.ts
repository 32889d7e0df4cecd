// Fast-mode key points (PG-RAG asks a model to "list the key information needed to answer"; without one,
// the question itself and its key phrases stand in): names and quoted titles for Latin-script questions,
// jieba's TF-IDF keywords for Chinese.
import { hasHan } from '../../text/lang.js';
import { getJieba, getTfIdf } from '../../text/jieba.js';
import { isStopWord } from '../../text/stopwords.js';

const QUOTED = /["“”«»「」『』]([^"“”«»「」『』]{2,80})["“”«»「」『』]/gu;
// A run of capitalised words, allowing short lowercase joiners inside ("Lord of the Rings", "Duke of York").
const NAME_RUN = /\p{Lu}[\p{L}\p{N}'’.-]*(?:\s+(?:(?:of|the|de|von|van|and|la|le|du|del|da)\s+)*\p{Lu}[\p{L}\p{N}'’.-]*)*/gu;

const QUESTION_WORDS = new Set(['who', 'whom', 'whose', 'what', 'when', 'where', 'which', 'why', 'how', 'is', 'are', 'was', 'were', 'do', 'does', 'did', 'in', 'on', 'at', 'the', 'a', 'an']);
const isFiller = (word: string) => QUESTION_WORDS.has(word.toLowerCase()) || isStopWord(word.toLowerCase());

export function keyPhrases(question: string, max = 4): string[] {
  const phrases: string[] = [];
  const add = (p: string) => {
    const t = p.trim().replace(/[?.,!:;]+$/, '');
    if (t && !phrases.some((x) => x.toLowerCase() === t.toLowerCase()) && t.toLowerCase() !== question.trim().toLowerCase()) phrases.push(t);
  };
  for (const m of question.matchAll(QUOTED)) add(m[1]!);
  if (hasHan(question)) {
    for (const k of getTfIdf().extractKeywords(getJieba(), question, max)) add(k.keyword);
  } else {
    for (const m of question.matchAll(NAME_RUN)) {
      const words = m[0].split(/\s+/);
      // The sentence's first word is capitalised by grammar, not because it is a name ("Which", "Who").
      if (m.index === 0 && isFiller(words[0]!)) words.shift();
      if (words.length === 1 && isFiller(words[0]!)) continue;
      if (words.length) add(words.join(' '));
    }
  }
  return phrases.slice(0, max);
}

/** The key points a retrieval uses: the model's when given, else the question and its key phrases. */
export function fastKeyPoints(question: string): string[] {
  return [question, ...keyPhrases(question)];
}
