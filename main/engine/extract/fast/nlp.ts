import { createRequire } from 'node:module';
import type { WinkMethods } from 'wink-nlp';

// Required on first use, not imported: loading the model's module alone takes ~50 ms, which every start
// of the CLI and the engine paid, question or not; extraction needs it. Text arrives one sentence at a
// time, so sentence boundary detection and the unused sentiment/negation passes stay off.
const require = createRequire(import.meta.url);
let nlp: WinkMethods | null = null;

export function getNlp(): WinkMethods {
  if (!nlp) {
    const winkNLP = require('wink-nlp') as typeof import('wink-nlp').default;
    const model = require('wink-eng-lite-web-model') as typeof import('wink-eng-lite-web-model').default;
    nlp = winkNLP(model, ['pos', 'ner']);
  }
  return nlp;
}
