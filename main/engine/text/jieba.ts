import { Jieba, TfIdf } from '@node-rs/jieba';
import { dict, idf } from '@node-rs/jieba/dict';

// Loading the dictionary takes ~0.3 s, so it happens once, on first use, and only if a note or
// question actually contains Chinese.
let jieba: Jieba | null = null;
let tfIdf: TfIdf | null = null;

export function getJieba(): Jieba {
  jieba ??= Jieba.withDict(dict);
  return jieba;
}

export function getTfIdf(): TfIdf {
  tfIdf ??= TfIdf.withDict(idf);
  return tfIdf;
}
