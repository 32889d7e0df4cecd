// How people ask a notes app about their notes: "What do my notes say about X?", "What have I written on
// X?", "According to my notes, …", "我的笔记里关于X说了什么？", "Was steht in meinen Notizen über X?". The
// frame names the notes, not what is asked: its words ("notes", "say", "written") would match a note's own
// meta lines ("everything here is written by me unless a note says otherwise") before the fact about X.
// Only a frame in its place counts (the question's start or end, with "my"/"the" before "notes"), so "the
// tasting notes of the Ethiopia" or "list the notes that link here" keep their words.
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
// The same frames in German, French and Spanish (the languages the catalogue's multilingual embedder is
// offered for), as the index segments them ("qu'est", "ce", "que"). Leading and trailing frames need a
// possessive ("laut meinen Notizen", not "in den Notizen"), and "the notes" frame a question only with
// the word that asks about something right after them: "was steht in den Notizen des Röstmeisters" asks
// about those notes.
const DE_NOTES = '(?:notizen|notiz|aufzeichnungen|unterlagen|dokumente|dateien|seiten|tagebuch|tagebuchs)';
const DE_MINE = '(?:meine|meinen|meiner|unsere|unseren|unserer)';
const DE_ABOUT = '(?:über|zu|zum|zur|von|bezüglich)';
const FR_NOTES = '(?:notes?|fichiers?|documents?|pages?|carnets?|journal)';
const FR_MINE = '(?:mes|nos)';
const FR_ABOUT = '(?:sur|à propos de|au sujet de|concernant)';
const FR_SAY = '(?:disent|racontent|contiennent|mentionnent|indiquent|savent)';
const ES_NOTES = '(?:notas?|apuntes|archivos?|documentos?|páginas?|diario)';
const ES_MINE = '(?:mis|nuestras|nuestros)';
const ES_ABOUT = '(?:sobre|acerca de|respecto a|en cuanto a)';
const OTHER_FRAMES: RegExp[] = [
  // was sagen meine Notizen über / was steht in meinen Notizen zu
  new RegExp(`^was (?:sagen|sagt|erzählen|steht|stehen|stand|schreiben|wissen|enthalten) (?:in )?(?:${DE_MINE} ${DE_NOTES}(?: ${DE_ABOUT})?|(?:die|den|diese|diesen) ${DE_NOTES} ${DE_ABOUT})(?= )`),
  // finde meine Notizen über / zeig mir alle meine Notizen zu
  new RegExp(`^(?:finde|zeige|zeig|liste|suche|such)(?: mir)?(?: alle)? ${DE_MINE} ${DE_NOTES} (?:über|zu|zum|zur|mit)(?= )`),
  // laut meinen Notizen, / in meinen Notizen (leading or trailing)
  new RegExp(`^(?:laut|gemäß|nach|in|aus) ${DE_MINE} ${DE_NOTES}(?= )`),
  new RegExp(`(?<= )(?:laut|gemäß|in|aus) ${DE_MINE} ${DE_NOTES}$`),
  // qu'est-ce que mes notes disent sur / que disent mes notes sur
  new RegExp(`^qu'est ce que (?:${FR_MINE} ${FR_NOTES} ${FR_SAY}(?: ${FR_ABOUT})?|(?:les|ces) ${FR_NOTES} ${FR_SAY} ${FR_ABOUT})(?= )`),
  new RegExp(`^que ${FR_SAY} (?:${FR_MINE} ${FR_NOTES}(?: ${FR_ABOUT})?|(?:les|ces) ${FR_NOTES} ${FR_ABOUT})(?= )`),
  // qu'est-ce que j'ai écrit sur
  new RegExp(`^(?:qu'est ce que|qu'ai je) (?:j'ai |nous avons )?(?:écrit|noté|dit|appris|retenu)(?: ${FR_ABOUT})?(?= )`),
  // trouve mes notes sur / montre-moi toutes mes notes concernant
  new RegExp(`^(?:trouve|montre|liste|cherche)(?: moi)?(?: toutes)? ${FR_MINE} ${FR_NOTES} (?:sur|concernant|à propos de|qui mentionnent)(?= )`),
  // d'après mes notes, / selon mes notes, (leading or trailing)
  new RegExp(`^(?:d'après|selon|dans) ${FR_MINE} ${FR_NOTES}(?= )`),
  new RegExp(`(?<= )(?:d'après|selon|dans) ${FR_MINE} ${FR_NOTES}$`),
  // ¿qué dicen mis notas sobre
  new RegExp(`^(?:qué|que) (?:dicen|cuentan|contienen|mencionan|tienen) (?:${ES_MINE} ${ES_NOTES}(?: ${ES_ABOUT})?|(?:las|los|estas|estos) ${ES_NOTES} ${ES_ABOUT})(?= )`),
  // ¿qué he escrito sobre
  new RegExp(`^(?:qué|que) (?:he|hemos) (?:escrito|anotado|apuntado|dicho|aprendido)(?: ${ES_ABOUT})?(?= )`),
  // busca mis notas sobre / muéstrame todas mis notas de
  new RegExp(`^(?:busca|muestra|muéstrame|encuentra|lista)(?: me)?(?: todas)? ${ES_MINE} ${ES_NOTES} (?:sobre|de|acerca de|que mencionan)(?= )`),
  // según mis notas, / en mis notas (leading or trailing)
  new RegExp(`^(?:según|en|de) ${ES_MINE} ${ES_NOTES}(?= )`),
  new RegExp(`(?<= )(?:según|en) ${ES_MINE} ${ES_NOTES}$`),
];
const FRAMES = [...EN_FRAMES, ...OTHER_FRAMES];
// "was habe ich über X geschrieben": the frame opens the question and its verb closes it.
const DE_WRITTEN_OPENS = /^was (?:habe ich|haben wir) (?:schon )?(?:über|zu|zum|zur)(?= )/;
const DE_WRITTEN_CLOSES = / (?:geschrieben|notiert|aufgeschrieben|festgehalten|gesagt|gelernt)$/;
// 我的笔记里关于X说了什么 / 笔记中提到X了吗: the notes at the start, and the verb that asks what they say.
const ZH_NOTES = /^(?:(?:我|我们) )?(?:的 )?笔记(?: (?:里|中|里面|上))?(?= )/;
const ZH_SAY = / (?:说|写|记|讲|提到|记下|记录)(?= |$)/;

/** The question's words without the frame that names the notes (all of them when nothing else is left). */
export function withoutQuestionFrame(words: string[]): string[] {
  if (words.length < 3) return words;
  let text = words.join(' ');
  for (const frame of FRAMES) text = text.replace(frame, '').trim();
  if (DE_WRITTEN_OPENS.test(text) && DE_WRITTEN_CLOSES.test(text)) text = text.replace(DE_WRITTEN_OPENS, '').replace(DE_WRITTEN_CLOSES, '').trim();
  if (ZH_NOTES.test(text)) text = text.replace(ZH_NOTES, '').replace(ZH_SAY, '').trim();
  const kept = text.split(' ').filter((w) => w !== '');
  return kept.length > 0 ? kept : words;
}
