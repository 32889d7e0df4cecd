import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { Req, Res } from '../../../main/contract/contract.js';
import { AnswerText } from '../components/AnswerText.js';
import { ConfirmDialog } from '../components/ConfirmDialog.js';
import { Badge, Button, EmptyState, ErrorBox, Notice, ui } from '../components/ui.js';
import { useApp } from '../lib/app-context.js';
import { lineRange } from '../lib/format.js';
import { useCall } from '../lib/use-call.js';
import { RelatedNotes } from '../components/RelatedNotes.js';
import { RetrievedPassages } from '../components/RetrievedPassages.js';
import { PathTitle } from '../components/PathTitle.js';
import views from './views.module.css';
import css from './Ask.module.css';

type Citation = Res<'ask'>['citations'][number];
type ChatSummary = Res<'chats.list'>[number];
type Method = NonNullable<Req<'ask'>['method']>;

interface Turn {
  id: string;
  question: string;
  streamed: string;
  answer: Res<'ask'> | (Pick<Res<'ask'>, 'text' | 'citations' | 'contexts' | 'matchKeys'> & { mode?: undefined }) | null;
  error: unknown;
}

let streamCounter = 0;

export function AskView() {
  const { client, indexVersion, view } = useApp();
  const [turns, setTurns] = useState<Turn[]>([]);
  const [question, setQuestion] = useState('');
  // The engine's retrieval registry, as the method setting describes it; until one is chosen here, the setting's value.
  const described = useCall('settings.describe', {}).data?.find((d) => d.key === 'method');
  const setting = useCall('settings.get', {}, [indexVersion]).data?.method as Method | undefined;
  const [chosen, setChosen] = useState<Method | null>(null);
  const method = chosen ?? setting;
  const [chatId, setChatId] = useState<number | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [historyVersion, setHistoryVersion] = useState(0);
  const chats = useCall('chats.list', {}, [historyVersion, indexVersion]);
  const [historyError, setHistoryError] = useState<unknown>(null);
  const [deleting, setDeleting] = useState<ChatSummary | null>(null);
  const end = useRef<HTMLDivElement>(null);
  const questionRef = useRef<HTMLTextAreaElement>(null);

  // Coming to Ask (Ctrl+2, the sidebar) puts the cursor in the question box.
  useEffect(() => {
    if (view === 'ask') questionRef.current?.focus();
  }, [view]);

  useEffect(() => {
    return client.on('answer.token', ({ streamId, token }) =>
      setTurns((ts) => ts.map((t) => (t.id === streamId ? { ...t, streamed: t.streamed + token } : t))),
    );
  }, [client]);

  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [turns]);

  async function ask(e?: FormEvent) {
    e?.preventDefault();
    const q = question.trim();
    if (!q || busy) return;
    const id = `ask-${Date.now()}-${++streamCounter}`;
    setTurns((ts) => [...ts, { id, question: q, streamed: '', answer: null, error: null }]);
    setQuestion('');
    setBusy(true);
    try {
      const answer = await client.call('ask', { question: q, method, chatId, streamId: id });
      if (answer.chatId) setChatId(answer.chatId);
      setTurns((ts) => ts.map((t) => (t.id === id ? { ...t, answer } : t)));
      setHistoryVersion((v) => v + 1);
    } catch (err) {
      setTurns((ts) => ts.map((t) => (t.id === id ? { ...t, error: err } : t)));
    } finally {
      setBusy(false);
    }
  }

  function onKey(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      void ask();
    }
  }

  async function openChat(id: number) {
    setHistoryError(null);
    try {
      const messages = await client.call('chats.get', { id });
      const restored: Turn[] = [];
      for (const m of messages) {
        if (m.role === 'user') restored.push({ id: `chat-${id}-${restored.length}`, question: m.text, streamed: '', answer: null, error: null });
        else if (restored.length) restored[restored.length - 1]!.answer = { text: m.text, citations: m.citations, contexts: m.contexts, matchKeys: m.matchKeys };
      }
      setTurns(restored);
      setChatId(id);
    } catch (err) {
      setHistoryError(err);
    }
  }

  async function deleteChat(c: ChatSummary) {
    setDeleting(null);
    setHistoryError(null);
    try {
      await client.call('chats.delete', { id: c.id });
      // The open conversation was this one: what is on screen no longer exists.
      if (c.id === chatId) {
        setTurns([]);
        setChatId(undefined);
      }
      setHistoryVersion((v) => v + 1);
    } catch (err) {
      setHistoryError(err);
    }
  }

  return (
    <section className={css.layout} aria-labelledby="ask-title">
      <div className={views.view}>
        <div className={views.header}>
          <h1 id="ask-title" className={ui.heading}>
            Ask
          </h1>
          <span className={ui.row}>
            <label htmlFor="method" className={ui.muted}>
              Retrieval
            </label>
            <select id="method" className={ui.select} value={method ?? ''} onChange={(e) => setChosen(e.target.value as Method)}>
              {(described?.options ?? []).map((m) => (
                <option key={m} value={m}>
                  {described?.optionLabels?.[m] ?? m}
                </option>
              ))}
            </select>
          </span>
        </div>
        <div className={css.thread} aria-live="polite">
          {turns.length === 0 && (
            <EmptyState title="Ask your notes anything">
              <span>Answers cite the fact paths and note lines they rest on; click a citation to open the note there.</span>
            </EmptyState>
          )}
          {turns.map((t) => (
            <TurnView key={t.id} turn={t} />
          ))}
          <div ref={end} />
        </div>
        <form className={css.composer} onSubmit={ask}>
          <label htmlFor="question" className="sr-only">
            Question
          </label>
          <textarea ref={questionRef} id="question" placeholder="Ask a question (Enter to send, Shift+Enter for a new line)" value={question} onChange={(e) => setQuestion(e.target.value)} onKeyDown={onKey} rows={2} />
          <Button type="submit" variant="primary" disabled={busy || !question.trim()}>
            {busy ? 'Answering…' : 'Ask'}
          </Button>
        </form>
      </div>
      <aside className={css.history} aria-label="Conversation history">
        <Button
          size="small"
          onClick={() => {
            setTurns([]);
            setChatId(undefined);
          }}
        >
          New conversation
        </Button>
        <span className={ui.muted}>History</span>
        <ErrorBox error={chats.error ?? historyError} />
        {chats.data?.length === 0 && <span className={ui.muted}>No past conversations.</span>}
        {chats.data?.map((c) => (
          <div key={c.id} className={css.historyRow}>
            <button
              type="button"
              className={`${css.historyItem} ${c.id === chatId ? css.historyActive : ''}`}
              title={`${c.title} — ${c.createdAt} (Delete key: delete it)`}
              onClick={() => openChat(c.id)}
              onKeyDown={(e) => e.key === 'Delete' && (e.preventDefault(), setDeleting(c))}
            >
              {c.title}
            </button>
            <button type="button" className={css.historyDelete} aria-label={`Delete the conversation “${c.title}”`} title="Delete this conversation" onClick={() => setDeleting(c)}>
              ×
            </button>
          </div>
        ))}
      </aside>
      {deleting && (
        <ConfirmDialog title="Delete this conversation?" confirmLabel="Delete conversation" onConfirm={() => void deleteChat(deleting)} onCancel={() => setDeleting(null)}>
          <span>“{deleting.title}” and its answers leave the history. Your notes and the index are not touched.</span>
        </ConfirmDialog>
      )}
    </section>
  );
}

function TurnView({ turn }: { turn: Turn }) {
  const { openNote } = useApp();
  const a = turn.answer;
  const citations = a?.citations ?? [];
  const known = new Set(citations.map((c) => c.n));
  const open = (c: Pick<Citation, 'docPath' | 'docId' | 'lineFrom' | 'lineTo'>) => openNote({ docPath: c.docPath, docId: c.docId, lineFrom: c.lineFrom, lineTo: c.lineTo });
  const openN = (n: number) => {
    const c = citations.find((x) => x.n === n);
    if (c) open(c);
  };
  return (
    <>
      <div className={`${css.message} ${css.user}`}>{turn.question}</div>
      <article className={css.message} data-testid="answer">
        {a && 'method' in a && (
          <div className={css.meta}>
            <Badge>{a.mode === 'generated' ? `Written by ${a.model ?? 'the model'}` : 'Extractive'}</Badge>
            <span>method {a.method}</span>
            <span>{Math.round(a.ms).toLocaleString()} ms</span>
            {a.droppedCitations > 0 && <span>{a.droppedCitations} invalid citation(s) removed</span>}
          </div>
        )}
        {a && 'mode' in a && a.mode === 'extractive' && a.answerable && !/extractive/i.test(a.text) && (
          <Notice>No language model answered: these are the best-matching fact paths from your notes, cited. Install a model in Settings &amp; models for written answers.</Notice>
        )}
        {a && 'notice' in a && a.notice && <Notice>{a.notice}</Notice>}
        <ErrorBox error={turn.error} />
        {!a && !turn.error && (turn.streamed ? <div className={css.streaming}>{turn.streamed}</div> : <span className={`${ui.muted} ${css.streaming}`}>Searching your notes</span>)}
        {a && (a.text ? <AnswerText text={a.text} onCite={openN} known={known} support={'support' in a ? a.support : undefined} /> : <span className={ui.muted}>Nothing in the index answers this.</span>)}
        {citations.length > 0 && (
          <ol className={css.citations} aria-label="Sources">
            {citations.map((c) => (
              <li key={c.n}>
                <button type="button" className={css.citation} onClick={() => open(c)} data-testid="citation">
                  <span className={css.citeNumber}>[{c.n}]</span>
                  <span>
                    <PathTitle path={c.factPath ?? c.text} />
                    <span className={ui.sourceLines} data-testid="citation-source">
                      {c.docPath} · {lineRange(c.lineFrom, c.lineTo)}
                    </span>
                  </span>
                </button>
              </li>
            ))}
          </ol>
        )}
        {a && <RetrievedPassages contexts={a.contexts} citations={citations} matchKeys={a.matchKeys} onOpen={open} />}
        {citations[0] && (
          <details className={ui.disclosure} data-testid="answer-related">
            <summary>Related to {citations[0].docTitle || citations[0].docPath}</summary>
            <RelatedNotes docId={citations[0].docId} title={`Notes related to ${citations[0].docTitle || citations[0].docPath}`} limit={5} compact />
          </details>
        )}
      </article>
    </>
  );
}
