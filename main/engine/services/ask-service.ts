// Questions and the conversations they make: retrieval, then a model's answer (or fast mode's
// extractive one), saved as a chat. An ask given an id can be cancelled by it: a local model stops writing.
import { needsKeyPoints, retrieve } from '../retrieve/index.js';
import { extractiveAnswer } from '../answer/extractive.js';
import { answerability } from '../answer/answerable.js';
import { MODEL_NOT_GROUNDED, notAnswered } from '../answer/not-answered.js';
import { orNotice } from '../answer/model-fallback.js';
import type { GeneratedAnswer } from '../answer/generate.js';
import { matchKeys } from '../answer/term-match.js';
import { questionSearchedWords, searchedWords } from '../retrieve/query.js';
import { addChatMessage, assertChat, deleteChat, listChats, loadChat, newChat } from '../store/chats.js';
import { ConflictError, UserError } from '../errors.js';
import type { Answer, AskOptions, ChatMessage, ChatSummary } from '../api.js';
import type { RetrievalMethod } from '../types.js';
import { errorText, type EngineContext } from './engine-context.js';
import type { EmbedderService } from './embedder-service.js';
import type { LanguageModel } from './language-model.js';

/** A caller's own cancel, not a failure of Loci's: answered as a conflict (the ask was stopped by ask.cancel), never logged as internal. */
export class AskCancelledError extends ConflictError {
  constructor() {
    super('The question was cancelled.');
    this.name = 'AskCancelledError';
  }
}

export class AskService {
  /** Asks under way that were given an id, so `cancel` can stop them. */
  private readonly running = new Map<string, AbortController>();

  constructor(
    private readonly ctx: EngineContext,
    private readonly embedders: EmbedderService,
    private readonly model: LanguageModel,
  ) {}

  /** Retrieves the question's passages and answers from them, citing each; `opts.id` makes it cancellable. */
  async ask(question: string, opts: AskOptions & { id?: string } = {}): Promise<Answer> {
    const { id } = opts;
    if (id !== undefined && this.running.has(id)) throw new UserError(`A question with id '${id}' is already being answered.`);
    const cancel = new AbortController();
    if (id !== undefined) this.running.set(id, cancel);
    const signal = AbortSignal.any([cancel.signal, ...(opts.signal ? [opts.signal] : [])]);
    try {
      return await this.answer(question, { ...opts, signal });
    } catch (err) {
      if (cancel.signal.aborted) throw new AskCancelledError();
      throw err;
    } finally {
      if (id !== undefined && this.running.get(id) === cancel) this.running.delete(id);
    }
  }

  /** Stops the ask given this id: a model stops writing, and nothing of it is saved. False when none runs. */
  cancel(id: string): boolean {
    const ask = this.running.get(id);
    ask?.abort(new AskCancelledError());
    return Boolean(ask);
  }

  chats(): ChatSummary[] {
    return listChats(this.ctx.db);
  }

  async chat(id: number): Promise<ChatMessage[]> {
    assertChat(this.ctx.db, id);
    // An answer's passages mark its question's words, as when it was asked (matchKeys).
    let question = '';
    const out: ChatMessage[] = [];
    for (const m of loadChat(this.ctx.db, id)) {
      if (m.role === 'user') question = m.text;
      out.push({ ...m, matchKeys: m.role === 'assistant' ? matchKeys(await questionSearchedWords(this.embedders.retrievalContext, question)) : [] });
    }
    return out;
  }

  /** Forgets a past conversation: its questions and answers go; the notes and the index are untouched. */
  deleteChat(id: number): void {
    this.ctx.assertWritable('delete a conversation');
    deleteChat(this.ctx.db, id);
  }

  private async answer(question: string, opts: AskOptions & { signal: AbortSignal }): Promise<Answer> {
    const { ctx } = this;
    const started = performance.now();
    // The app's contract refuses it too; the CLI and scripts come straight here.
    if (!question.trim()) throw new UserError('The question is empty: type what you want to find in your notes.');
    if (opts.chatId !== undefined) assertChat(ctx.db, opts.chatId);
    const method = opts.method ?? (ctx.settings().method as RetrievalMethod);
    const k = opts.k ?? 8;
    // A chat model that cannot load or answer leaves the question to the extractive answer, with a notice.
    const modelNotices: string[] = [];
    const spec = this.model.spec();
    let llm = await orNotice(() => this.model.provider(), spec, modelNotices, opts.signal);
    const retrieval = this.embedders.retrievalContext;
    // An earlier question's key points must not stand for this one's.
    retrieval.keyPoints = undefined;
    if (llm && needsKeyPoints(method)) {
      const { keyPoints } = await import('../answer/generate.js');
      const model = llm;
      const points = await orNotice(() => keyPoints(model, question, { signal: opts.signal }), spec, modelNotices, opts.signal);
      if (points) retrieval.keyPoints = points;
      else llm = null;
    }
    const result = await retrieve(retrieval, question, method, k);
    opts.signal.throwIfAborted();
    const terms = result.query.terms;
    let answer: Pick<Answer, 'text' | 'citations' | 'droppedCitations' | 'mode' | 'model' | 'support'>;
    let generated: GeneratedAnswer | null = null;
    // Contexts that do not answer are named as the nearest notes, not quoted as if they did; a model's answer says so in its notice.
    const judged = answerability(retrieval, result.query, result.contexts);
    const unanswered = !judged.answerable && terms.length > 0 && result.contexts.length > 0;
    if (
      llm &&
      (generated = await orNotice(
        async () => (await import('../answer/generate.js')).generateAnswer(llm!, question, result.contexts, { onToken: opts.onToken, signal: opts.signal, terms, embedder: retrieval.embedder }),
        spec,
        modelNotices,
        opts.signal,
      ))
    ) {
      const g = generated;
      answer = {
        text: g.text,
        mode: 'generated',
        model: llm.id,
        droppedCitations: g.dropped,
        support: g.support,
        citations: g.citations.flatMap((n) => {
          const c = result.contexts[n - 1];
          return c ? [{ n, docId: c.docId, docPath: c.docPath, docTitle: c.docTitle, lineFrom: c.lineFrom, lineTo: c.lineTo, factPath: c.factPath, text: c.text }] : [];
        }),
      };
    } else if (unanswered) {
      answer = { ...notAnswered(result.contexts), mode: 'extractive', model: null, droppedCitations: 0 };
    } else {
      answer = { ...(await extractiveAnswer(retrieval, question, result.contexts, 5, result.query)), mode: 'extractive', model: null, droppedCitations: 0 };
    }
    opts.signal.throwIfAborted();
    // A read-only index answers without saving the conversation.
    let chatId: number | undefined;
    let unsaved: string | null = null;
    if (!ctx.readOnly) {
      // Another process's long write can outlast SQLite's busy timeout: the answer still goes out.
      try {
        chatId = ctx.db.transaction(() => {
          const id = opts.chatId ?? newChat(ctx.db, question);
          addChatMessage(ctx.db, id, { role: 'user', text: question, citations: [], contexts: [], method, model: null });
          addChatMessage(ctx.db, id, { role: 'assistant', text: answer.text, citations: answer.citations, contexts: result.contexts, method, model: answer.model });
          return id;
        })();
      } catch (err) {
        unsaved = `This answer was not saved to the conversation history: ${errorText(err)}.`;
      }
    }
    const notice = [...modelNotices, method === 'pgr' ? this.embedders.factPathsNotice() : null, !judged.answerable && terms.length > 0 && answer.mode === 'generated' ? MODEL_NOT_GROUNDED : null, unsaved].filter(Boolean).join(' ') || null;
    return {
      question,
      ...answer,
      answerable: judged.answerable,
      answerScore: judged.score,
      ...(notice ? { notice } : {}),
      method,
      contexts: result.contexts,
      matchKeys: matchKeys(searchedWords(terms, result.query.variants)),
      explanation: opts.explain ? result.explanation : undefined,
      chatId,
      ms: performance.now() - started,
    };
  }
}
