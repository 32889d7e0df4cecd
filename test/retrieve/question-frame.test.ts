import { describe, expect, it } from 'vitest';
import { segmentWords } from '../../main/engine/text/segment.js';
import { withoutQuestionFrame } from '../../main/engine/text/question-frame.js';
import { questionTerms } from '../../main/engine/retrieve/query.js';
import { at } from '../support/must.js';
import { sampleNotesEngine } from '../support/sample-notes-engine.js';

const asked = (q: string) => withoutQuestionFrame(segmentWords(q)).join(' ');

describe('the frame of a question about one’s notes', () => {
  it.each([
    ['What do my notes say about grinders?', 'grinders'],
    ['What does the journal tell me about Gothenburg?', 'gothenburg'],
    ['What have I written about the popper?', 'the popper'],
    ['Find my notes about water hardness', 'water hardness'],
    ['What is in my notes about Majorna?', 'majorna'],
    ['According to my notes, where was Mara born?', 'where was mara born'],
    ['Where was Mara born, according to my notes?', 'where was mara born'],
    ['我的笔记里关于咖啡烘焙说了什么？', '关于 咖啡 烘焙 了 什么'],
    ['笔记中提到哪些咖啡豆？', '哪些 咖啡豆'],
    ['Was sagen meine Notizen über die Röstung?', 'die röstung'],
    ['Was steht in meinen Notizen zu Mahlgraden?', 'mahlgraden'],
    ['Was habe ich über die Röstung geschrieben?', 'die röstung'],
    ['Laut meinen Notizen, wo wurde Mara geboren?', 'wo wurde mara geboren'],
    ["Qu'est-ce que mes notes disent sur la torréfaction ?", 'la torréfaction'],
    ["Qu'est-ce que j'ai écrit sur le moulin ?", 'le moulin'],
    ["D'après mes notes, où est née Mara ?", 'où est née mara'],
    ['Où est née Mara, selon mes notes ?', 'où est née mara'],
    ['¿Qué dicen mis notas sobre el tueste?', 'el tueste'],
    ['¿Qué dicen las notas sobre el molino?', 'el molino'],
    ['Was steht in den Notizen über Mahlgrade?', 'mahlgrade'],
    ['¿Qué he escrito sobre el molino?', 'el molino'],
    ['Según mis notas, ¿dónde nació Mara?', 'dónde nació mara'],
  ])('is left out of %s', (question, words) => {
    expect(asked(question)).toBe(words);
  });

  it.each([
    // "notes" is what is asked about here, not the frame.
    'What do the tasting notes say about acidity?',
    'How do I list the notes that link to this page?',
    'Where does a quick note go?',
    // Nothing but the frame: kept whole, so the question still searches for something.
    'What do my notes say?',
    // 说 is the question's own verb when no 笔记 frames it.
    '张三在会上说了什么？',
    // Some notes asked about, not the asker's: no possessive, or no closing verb.
    'Was steht in den Notizen des Röstmeisters?',
    'Was habe ich über die Röstung gelesen?',
    '¿Cuál es el precio de las notas del curso?',
    'Que disent les notes de dégustation sur l’acidité ?',
  ])('is not found in %s', (question) => {
    expect(asked(question)).toBe(segmentWords(question).join(' '));
  });

  it('is not searched for', () => {
    expect(questionTerms('What do my notes say about Varieties?')).toEqual(['varieties']);
  });
});

describe('asking the sample notes what they say about something', () => {
  const samples = sampleNotesEngine('loci-frame-');

  // The notebook's index says "everything here is written by me … unless a note says otherwise": with
  // the frame's words searched, that line led the answer to "What do my notes say about Varieties?".
  it('answers first with the fact about it, not with a line about the notes', async () => {
    const answer = await samples.engine.answers.ask('What do my notes say about Varieties?');
    const first = at(answer.citations, 0);
    expect(first.docPath).toBe('beans/Colombia Huila Washed.md');
    expect(first.text).toMatch(/^Varieties: /);
  });
});
