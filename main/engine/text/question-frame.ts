// How people ask a notes app about their notes: "What do my notes say about X?", "What have I written on
// X?", "According to my notes, …", "我的笔记里关于X说了什么？". The frame names the notes, not what is
// asked: its words ("notes", "say", "written") would match a note's own meta lines ("everything here is
// written by me unless a note says otherwise") before the fact about X. Only a frame in its place counts
// (the question's start or end, with "my"/"the" before "notes"), so "the tasting notes of the Ethiopia"
// or "list the notes that link here" keep their words.
const NOTES = '(?:notes?|notebooks?|files?|docs|documents?|pages?|journals?|diary|records)';
const OWNER = '(?:my|our|the|these|those|all my|all the)';
const ABOUT = '(?:about|on|of|regarding|concerning|for)';
const EN_FRAMES: RegExp[] = [
  // what do my notes say about / what does the diary tell me about / how do my notes describe
  new RegExp(`^(?:what|how|where|when|who|which|why) (?:do|does|did|can|could|would|will) ${OWNER} (?:own )?${NOTES} (?:say|said|tell|mention|show|record|describe|know|have|contain|hold)(?: me)?(?: ${ABOUT})?(?= )`),
  // what have I written about / what did I note down on
  new RegExp(`^(?:what|where) (?:have|did|do|had) (?:i|we) (?:ever )?(?:write|written|wrote|note|noted|jot|jotted|say|said|record|recorded|save|saved|keep|kept|learn|learned|learnt)(?: down)?(?: ${ABOUT})?(?= )`),
  // find / show me my notes about
  new RegExp(`^(?:find|show|list|give|get|search)(?: me)?(?: all)? my ${NOTES} (?:about|on|for|mentioning|regarding|concerning|with)(?= )`),
  // what is in my notes about / is there anything in my notes about
  new RegExp(`^(?:what(?: is|'s)?|is there anything|anything) in ${OWNER} ${NOTES}(?: ${ABOUT})?(?= )`),
  // according to my notes, / in my notes, (leading)
  new RegExp(`^(?:according to|in|from) ${OWNER} ${NOTES}(?= )`),
  // …, according to my notes / …in my notes (trailing)
  new RegExp(`(?<= )(?:according to|in|from) ${OWNER} ${NOTES}$`),
];
// 我的笔记里关于X说了什么 / 笔记中提到X了吗: the notes at the start, and the verb that asks what they say.
const ZH_NOTES = /^(?:(?:我|我们) )?(?:的 )?笔记(?: (?:里|中|里面|上))?(?= )/;
const ZH_SAY = / (?:说|写|记|讲|提到|记下|记录)(?= |$)/;

/** The question's words without the frame that names the notes (all of them when nothing else is left). */
export function withoutQuestionFrame(words: string[]): string[] {
  if (words.length < 3) return words;
  let text = words.join(' ');
  for (const frame of EN_FRAMES) text = text.replace(frame, '').trim();
  if (ZH_NOTES.test(text)) text = text.replace(ZH_NOTES, '').replace(ZH_SAY, '').trim();
  const kept = text.split(' ').filter((w) => w !== '');
  return kept.length > 0 ? kept : words;
}
