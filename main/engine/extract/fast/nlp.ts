import winkNLP, { type WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

// The model takes ~60 ms to load; one instance serves every note. Text arrives one sentence at a
// time, so sentence boundary detection and the unused sentiment/negation passes stay off.
let nlp: WinkMethods | null = null;

export function getNlp(): WinkMethods {
  nlp ??= winkNLP(model, ['pos', 'ner']);
  return nlp;
}
