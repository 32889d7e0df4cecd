// A three-paragraph set written for the answer benches' tests (not from any data set): one one-hop question
// and one whose answer needs two paragraphs, so a report's per-question and per-context fields all fill.
import type { BenchDataset } from '../../../main/bench/dataset.js';

export const twoHopSet: BenchDataset = {
  format: 'hotpotqa',
  corpus: [
    { title: 'Marsh Lane library', text: 'The Marsh Lane library opened in 1962 and holds about 40,000 books.' },
    { title: 'Quay Street', text: 'Quay Street runs along the harbour and is home to the Harbour Bakery.' },
    { title: 'Harbour Bakery', text: 'Ines Varga has run the Harbour Bakery since 2010.' },
  ],
  questions: [
    { id: 'a', question: 'When did the Marsh Lane library open?', answers: ['1962'], gold: [0] },
    { id: 'b', question: 'Who runs the bakery on Quay Street?', answers: ['Ines Varga'], gold: [1, 2] },
  ],
};
