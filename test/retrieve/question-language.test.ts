import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseQuery, questionSearchedWords } from '../../main/engine/retrieve/query.js';
import { retrieve } from '../../main/engine/retrieve/index.js';
import { extractiveAnswer, NOTHING_TO_SEARCH } from '../../main/engine/answer/extractive.js';
import { languageCounts } from '../../main/engine/store/languages.js';
import { isStopWordIn, stopWordsOf } from '../../main/engine/text/stopwords.js';
import { indexNotes, type IndexedNotes } from '../support/indexed-notes.js';

// A question in the language of the notes leaves out that language's common words, as an English
// question leaves out "the" and "where"; only where the library holds notes in that language, and only
// when the question is in it.
const GERMAN = {
  'Falkenhof.md': [
    '# Rösterei Falkenhof',
    '',
    'Die Rösterei Falkenhof ist eine kleine Kaffeerösterei in der Altstadt von Lübeck. Sie wurde im Jahr 2014 von Greta Sommer gegründet und röstet jede Woche drei Sorten aus Äthiopien und Kolumbien.',
    '',
    'Der Laden öffnet am Samstag schon um acht Uhr, und die Gäste können beim Rösten durch ein großes Fenster zusehen.',
  ].join('\n'),
  'Greta Sommer.md': [
    '# Greta Sommer',
    '',
    'Greta Sommer ist die Gründerin und Chefrösterin der Rösterei Falkenhof. Sie wurde 1983 in Flensburg geboren und hat lange als Lehrerin gearbeitet, bevor sie mit dem Rösten angefangen hat.',
    '',
    'Am liebsten trinkt sie ihren Kaffee schwarz und ohne Zucker aus einer alten Tasse ihrer Großmutter.',
  ].join('\n'),
};

const ENGLISH = {
  'History.md': [
    '# The old king',
    '',
    'The old king of the valley did not die in the war, as the songs say, but of a fever in the winter after it. His daughter ruled in his place for thirty years and built the stone bridge over the river.',
  ].join('\n'),
};

describe('common words of the question’s language', () => {
  let mixed: IndexedNotes | undefined;
  let english: IndexedNotes | undefined;
  beforeAll(async () => {
    mixed = await indexNotes('loci-question-language-', { ...GERMAN, ...ENGLISH });
    english = await indexNotes('loci-question-language-en-', ENGLISH);
  }, 60_000);
  afterAll(() => {
    mixed?.close();
    english?.close();
  });

  it('judges the German notes German', () => {
    expect(languageCounts(mixed!.db).de).toBe(2);
  });

  it('leaves German common words out of a German question over German notes', async () => {
    const qa = await analyseQuery(mixed!.ctx, 'Wo wurde die Gründerin der Rösterei Falkenhof geboren?');
    expect(qa.terms).toEqual(expect.arrayContaining(['gründerin', 'rösterei', 'falkenhof', 'geboren']));
    for (const common of ['wo', 'wurde', 'die', 'der']) expect(qa.terms).not.toContain(common);
    // The bridge: the roastery named, its founder's note answers.
    const r = await retrieve(mixed!.ctx, qa.question, 'loci', 3);
    const a = await extractiveAnswer(mixed!.ctx, qa.question, r.contexts, 5, r.query);
    expect(a.citations[0]?.text, a.text).toContain('1983 in Flensburg geboren');
  });

  it('marks the same words in a past answer’s passages as when it was asked', async () => {
    const question = 'Wo wurde die Gründerin der Rösterei Falkenhof geboren?';
    const marked = await questionSearchedWords(mixed!.ctx, question);
    expect(marked).toContain('falkenhof');
    expect(marked).not.toContain('die');
  });

  it('keeps "die" and "war" in an English question over the same notes', async () => {
    const qa = await analyseQuery(mixed!.ctx, 'How did the old king die in the war?');
    expect(qa.terms).toEqual(expect.arrayContaining(['king', 'die', 'war']));
  });

  it('strips accents only where the letters are Latin, so a script whose marks are its vowels keeps its words apart', () => {
    expect(isStopWordIn('dónde', stopWordsOf('es'))).toBe(true);
    expect(isStopWordIn('है', stopWordsOf('hi'))).toBe(true);
    expect(isStopWordIn('ह', stopWordsOf('hi'))).toBe(false);
  });

  it('keeps every word of a German question where no note is German', async () => {
    const qa = await analyseQuery(english!.ctx, 'Wo wurde die Gründerin geboren?');
    expect(qa.terms).toEqual(expect.arrayContaining(['wo', 'wurde', 'die']));
  });

  it('says there is nothing to search for when a German question has only common words', async () => {
    const question = 'Was ist das denn?';
    const r = await retrieve(mixed!.ctx, question, 'loci', 3);
    const a = await extractiveAnswer(mixed!.ctx, question, r.contexts, 5, r.query);
    expect(a.text).toBe(NOTHING_TO_SEARCH);
  });
});
