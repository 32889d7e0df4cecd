import { createRequire } from 'node:module';
import type { Jieba, TfIdf } from '@node-rs/jieba';

// Loading the dictionary takes ~0.3 s, so it happens once, on first use, and only if a note or
// question actually contains Chinese. Even loading the native module and reading the dictionary files
// (~50 ms at import) waits until then: every indexing worker starts without them.
const require = createRequire(import.meta.url);
const jiebaModule = () => require('@node-rs/jieba') as typeof import('@node-rs/jieba');
const dictionaries = () => require('@node-rs/jieba/dict') as { dict: Buffer; idf: Buffer };
let jieba: Jieba | null = null;
let tfIdf: TfIdf | null = null;

export function getJieba(): Jieba {
  jieba ??= jiebaModule().Jieba.withDict(dictionaries().dict);
  return jieba;
}

export function getTfIdf(): TfIdf {
  tfIdf ??= jiebaModule().TfIdf.withDict(dictionaries().idf);
  return tfIdf;
}
