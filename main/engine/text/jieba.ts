import { createRequire } from 'node:module';
import { Jieba, TfIdf } from '@node-rs/jieba';

// Loading the dictionary takes ~0.3 s, so it happens once, on first use, and only if a note or
// question actually contains Chinese. Even reading its files (a static import of the package's dict
// module does, ~40 ms) waits until then: every indexing worker starts without it.
const require = createRequire(import.meta.url);
const dictionaries = () => require('@node-rs/jieba/dict') as { dict: Buffer; idf: Buffer };
let jieba: Jieba | null = null;
let tfIdf: TfIdf | null = null;

export function getJieba(): Jieba {
  jieba ??= Jieba.withDict(dictionaries().dict);
  return jieba;
}

export function getTfIdf(): TfIdf {
  tfIdf ??= TfIdf.withDict(dictionaries().idf);
  return tfIdf;
}
