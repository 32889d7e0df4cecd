import { createRequire } from 'node:module';

// The `stopword` lists leave out the question words that make up most of a question's filler
// ("what", "谁", "什么"…), and its Chinese list is single characters only, while jieba emits words.
const QUESTION_EN = ['what', 'whom', 'whose', 'why', 'does', 'doing', 'done', 'the', 'tell', 'know', 's', 't'];
const QUESTION_ZH = [
  '什么', '哪', '哪里', '哪儿', '哪个', '哪些', '哪位', '谁', '如何', '怎么', '怎样', '怎么样', '为什么', '多少',
  '是否', '是不是', '请问', '吗', '呢', '的', '了', '是', '在', '有', '和', '与', '及', '以及', '一个', '这个',
  '那个', '这些', '那些', '我们', '你们', '他们', '她们', '它们', '什么样', '几', '关于', '哪一', '其', '被',
];

// Loaded on the first question rather than with the module (~30 ms): indexing workers never ask.
const require = createRequire(import.meta.url);
let stopWords: ReadonlySet<string> | null = null;

export function isStopWord(word: string): boolean {
  if (!stopWords) {
    const { eng, zho } = require('stopword') as { eng: string[]; zho: string[] };
    stopWords = new Set([...eng, ...zho, ...QUESTION_EN, ...QUESTION_ZH]);
  }
  return stopWords.has(word);
}
