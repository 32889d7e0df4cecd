import { eng, zho } from 'stopword';

// The `stopword` lists leave out the question words that make up most of a question's filler
// ("what", "谁", "什么"…), and its Chinese list is single characters only, while jieba emits words.
const QUESTION_EN = ['what', 'whom', 'whose', 'why', 'does', 'doing', 'done', 'the', 'tell', 'know', 's', 't'];
const QUESTION_ZH = [
  '什么', '哪', '哪里', '哪儿', '哪个', '哪些', '哪位', '谁', '如何', '怎么', '怎样', '怎么样', '为什么', '多少',
  '是否', '是不是', '请问', '吗', '呢', '的', '了', '是', '在', '有', '和', '与', '及', '以及', '一个', '这个',
  '那个', '这些', '那些', '我们', '你们', '他们', '她们', '它们', '什么样', '几', '关于', '哪一', '其', '被',
];

export const STOP_WORDS: ReadonlySet<string> = new Set([...eng, ...zho, ...QUESTION_EN, ...QUESTION_ZH]);

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}
