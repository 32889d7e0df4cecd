// Versioned prompts for every model task, in English and Chinese. The version is part of the extractor
// key (`llm:<model>@<version>`), so changing any prompt text or schema here must bump PROMPT_VERSION —
// that re-extracts every note with the new prompts instead of mixing generations.
import type { Lang } from '../../types.js';
import { fciSchema, keyPointsSchema, mindMapSchema, pieceSchema, tripleSchema } from './schemas.js';

/**
 * p1: three calls per note (FCIs per piece with up to 3 regenerations, a mind map, triples per piece).
 * p2: one bounded call per piece writes FCIs grouped under routes; triples are parsed from the FCIs.
 * p3f: p2 written as free text and parsed late (JSON grammar only as a fallback), generation
 *   stopped as soon as the reply loops (a repeated line), so the token bound is a safety net.
 */
export const PROMPT_VERSIONS = { separate: 'p1', combined: 'p2', free: 'p3f' } as const;
export type ExtractStrategy = keyof typeof PROMPT_VERSIONS;
/**
 * Free text, parsed late, stopped at the first loop: on Gemma 3 270M it wrote a third of p1's tokens with
 * more FCIs grounded than p1 or strict p2 (`bench-llm --quality`; docs/benchmarks.md, the model pass).
 */
export const DEFAULT_STRATEGY: ExtractStrategy = 'free';
/** The version rows are written under by default; changing the default strategy re-extracts every note. */
export const PROMPT_VERSION: string = PROMPT_VERSIONS[DEFAULT_STRATEGY];

export type PromptLang = 'en' | 'zh';

export interface BuiltPrompt {
  system: string;
  prompt: string;
  jsonSchema?: object;
}

/** Chinese notes get Chinese prompts; everything else English. */
export function promptLang(lang: Lang | string | undefined): PromptLang {
  return lang === 'zh' ? 'zh' : 'en';
}

/** Rough language guess for free text (questions), by the share of CJK characters. */
export function detectLang(text: string): PromptLang {
  const cjk = text.match(/[\u3400-\u9fff]/g)?.length ?? 0;
  const letters = text.match(/[\p{L}]/gu)?.length ?? 0;
  return letters > 0 && cjk / letters > 0.3 ? 'zh' : 'en';
}

// PG-RAG §2.3: rewrite the source into verifiable, self-contained fact-checking items.
export function fciPrompt(lang: PromptLang, piece: { title: string; headingPath: string[]; text: string }): BuiltPrompt {
  const where = [piece.title, ...piece.headingPath].filter(Boolean).join(' > ');
  if (lang === 'zh') {
    return {
      system:
        '你是一名严谨的事实核查编辑。请把给定的笔记片段改写为若干条“事实核查条目”：每条都是可以独立核实的完整陈述，' +
        '补全主语和上下文，不依赖其他条目即可理解；保留原文中的数字、日期、地点、人名和观点；不添加原文没有的信息。只输出 JSON。',
      prompt: `笔记位置：${where}\n\n片段：\n${piece.text}\n\n事实核查条目（JSON）：`,
      jsonSchema: fciSchema,
    };
  }
  return {
    system:
      'You are a careful fact-checking editor. Rewrite the given note excerpt as fact-checking items: each item is one ' +
      'complete statement that can be verified on its own, with its subject and context spelled out so it reads without ' +
      'the others. Keep every number, date, place, name and stated opinion. Add nothing the excerpt does not say. Answer in JSON only.',
    prompt: `Note location: ${where}\n\nExcerpt:\n${piece.text}\n\nFact-checking items (JSON):`,
    jsonSchema: fciSchema,
  };
}

// PG-RAG §2.3, both transformations in one call: the excerpt becomes FCIs grouped under routes. The
// instructions and a one-shot example are the system text, identical for every call, so a local model
// keeps them evaluated on its sequence and only the excerpt is new work.
// A made-up subject, unrelated to any note, so the example's facts cannot leak into an extraction unnoticed.
const PIECE_EXAMPLE = {
  en: {
    excerpt: 'The Marsh Lane library opened in 1962 and holds about 40,000 books. Its reading room is on the second floor.',
    routes: [
      { route: 'History', facts: ['The Marsh Lane library opened in 1962.'] },
      { route: 'Building and collection', facts: ['The Marsh Lane library holds about 40,000 books.', 'The reading room of the Marsh Lane library is on the second floor.'] },
    ],
  },
  zh: {
    excerpt: '沼泽巷图书馆于 1962 年开馆，藏书约四万册。阅览室在二楼。',
    routes: [
      { route: '历史', facts: ['沼泽巷图书馆于 1962 年开馆。'] },
      { route: '馆舍与藏书', facts: ['沼泽巷图书馆藏书约四万册。', '沼泽巷图书馆的阅览室在二楼。'] },
    ],
  },
};

/** The one-shot example, answered in the format the call asks for (JSON, or the free-text outline). */
function pieceExample(lang: PromptLang, free: boolean): string {
  const ex = PIECE_EXAMPLE[lang];
  const answer = free
    ? ex.routes.map((r) => [`${lang === 'zh' ? '路线：' : 'Route: '}${r.route}`, ...r.facts.map((f) => `- ${f}`)].join('\n')).join('\n')
    : JSON.stringify({ routes: ex.routes });
  return lang === 'zh' ? `示例片段：${ex.excerpt}\n示例回答：\n${answer}` : `Example excerpt: ${ex.excerpt}\nExample answer:\n${answer}`;
}

export function piecePrompt(lang: PromptLang, piece: { title: string; headingPath: string[]; text: string }, free = false): BuiltPrompt {
  const where = [piece.title, ...piece.headingPath].filter(Boolean).join(' > ');
  if (lang === 'zh') {
    return {
      system:
        '你是一名严谨的事实核查编辑。把笔记片段改写为简短的事实条目：每条是一句可以独立核实的完整陈述，写出主语，保留数字、日期、地点和人名，' +
        '不添加片段没有的信息；把相关条目归入一到三条简短的路线（子主题）。' +
        (free ? '每条路线写一行“路线：名称”，其下每条事实一行，以“- ”开头。\n' : '只输出 JSON。\n') +
        pieceExample('zh', free),
      prompt: `笔记位置：${where}\n\n片段：\n${piece.text}`,
      jsonSchema: free ? undefined : pieceSchema,
    };
  }
  return {
    system:
      'You are a careful fact-checking editor. Rewrite the note excerpt as short fact-checking items: each one complete ' +
      'statement that can be checked on its own, with its subject spelled out, keeping numbers, dates, places and names, ' +
      'adding nothing the excerpt does not say. Group related items under one to three short routes (sub-topics). ' +
      (free ? 'Write each route as a line "Route: name" followed by its facts, one per line starting with "- ".\n' : 'Answer in JSON only.\n') +
      pieceExample('en', free),
    prompt: `Note location: ${where}\n\nExcerpt:\n${piece.text}`,
    jsonSchema: free ? undefined : pieceSchema,
  };
}

// PG-RAG §2.3 second transformation: organise the verified items into topic → routes → facts.
export function mindMapPrompt(lang: PromptLang, input: { title: string; fcis: string[] }): BuiltPrompt {
  const numbered = input.fcis.map((f, i) => `${i + 1}. ${f}`).join('\n');
  if (lang === 'zh') {
    return {
      system:
        '你是一名知识整理助手。根据主题和编号的事实条目，制作一张思维导图：一个主题，若干条“路线”（把相关事实归在一起的子主题），' +
        '每条路线下列出事实，用 n 标注它来自哪一条编号的事实，fact 写成简洁的要点。每条事实只归入一条路线。只输出 JSON。',
      prompt: `主题：${input.title}\n\n事实条目：\n${numbered}\n\n思维导图（JSON）：`,
      jsonSchema: mindMapSchema,
    };
  }
  return {
    system:
      'You organise knowledge. From the main topic and the numbered facts, build a mind map: one topic, a few routes ' +
      '(sub-topics that group related facts), and under each route its facts, each with n = the number of the fact it ' +
      'comes from and fact = a concise wording of it. Put every fact under exactly one route. Answer in JSON only.',
    prompt: `Main topic: ${input.title}\n\nFacts:\n${numbered}\n\nMind map (JSON):`,
    jsonSchema: mindMapSchema,
  };
}

// KG-Retriever §3.2.1 (Tables 3–4): (subject; relation; object) triples covering the text, one example shot.
export function triplePrompt(lang: PromptLang, text: string): BuiltPrompt {
  if (lang === 'zh') {
    return {
      system:
        '你是一名信息抽取助手。阅读文本，把其中的知识写成知识图谱三元组（主体；关系；客体），只依据文本内容，尽量完整覆盖。' +
        '例如：“鲁迅原名周树人，1918年发表《狂人日记》。”→ (鲁迅; 原名; 周树人), (鲁迅; 发表; 《狂人日记》), (《狂人日记》; 发表年份; 1918)。只输出 JSON。',
      prompt: `文本：\n${text}\n\n三元组（JSON）：`,
      jsonSchema: tripleSchema,
    };
  }
  return {
    system:
      'You extract knowledge graphs. Read the text and write what it states as (subject; relation; object) triples, using ' +
      'only the text and covering all of it. Example: "Marie Curie, born in Warsaw, won the Nobel Prize in Physics in 1903." → ' +
      '(Marie Curie; born in; Warsaw), (Marie Curie; won; Nobel Prize in Physics), (Nobel Prize in Physics; year; 1903). Answer in JSON only.',
    prompt: `Text:\n${text}\n\nTriples (JSON):`,
    jsonSchema: tripleSchema,
  };
}

// PG-RAG App. F: key points — the pieces of information an answer would need (pseudo-answers for retrieval).
export function keyPointsPrompt(lang: PromptLang, question: string): BuiltPrompt {
  if (lang === 'zh') {
    return {
      system: '请为问题写出简明准确的答题要点：尽可能全面地列出回答该问题所需要的关键信息或具体信息。只输出 JSON。',
      prompt: `问题：${question}\n\n答题要点（JSON）：`,
      jsonSchema: keyPointsSchema,
    };
  }
  return {
    system:
      'Write a concise, accurate answer key for the question: list, as completely as you can, the key or specific ' +
      'pieces of information needed to answer it. Answer in JSON only.',
    prompt: `Question: ${question}\n\nAnswer key (JSON):`,
    jsonSchema: keyPointsSchema,
  };
}

// DESIGN §6: answer from the numbered, note-grouped context and cite every claim as [n].
export function answerPrompt(lang: PromptLang, question: string, context: string): BuiltPrompt {
  if (lang === 'zh') {
    return {
      system:
        '你只根据下面编号的资料回答问题。每个论断后用方括号标注所依据资料的编号，例如 [1] 或 [2][3]；不要引用不存在的编号。' +
        '如果资料不足以回答，请直说。',
      prompt: `资料：\n${context}\n\n问题：${question}\n\n回答：`,
    };
  }
  return {
    system:
      'Answer the question using only the numbered sources below. After each claim, cite the sources it rests on in ' +
      'square brackets, e.g. [1] or [2][3]; never cite a number that is not listed. If the sources do not answer the question, say so.',
    prompt: `Sources:\n${context}\n\nQuestion: ${question}\n\nAnswer:`,
  };
}
