import type { Db } from './db.js';
import type { ChatMessage, ChatSummary } from '../api.js';
import { NotFoundError } from '../errors.js';

/** A chat message as stored: its match keys are derived from the question when the chat is read (engine.chat). */
export type StoredChatMessage = Omit<ChatMessage, 'matchKeys'>;

/** A chat id from a caller must name a chat (else SQLite's bare "FOREIGN KEY constraint failed"). */
export function assertChat(db: Db, chatId: number): void {
  if (!db.prepare('SELECT 1 FROM chats WHERE id = ?').get(chatId)) throw new NotFoundError(`No chat ${chatId}.`);
}

export function newChat(db: Db, title: string): number {
  const { id } = db
    .prepare("INSERT INTO chats (title, created_at) VALUES (?, datetime('now')) RETURNING id")
    .get(title.slice(0, 120)) as { id: number };
  return id;
}

export function addChatMessage(
  db: Db,
  chatId: number,
  m: StoredChatMessage & { method: string | null; model: string | null },
): void {
  db.prepare(
    "INSERT INTO chat_messages (chat_id, role, text, citations, contexts, method, model, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, datetime('now'))",
  ).run(chatId, m.role, m.text, JSON.stringify(m.citations), JSON.stringify(m.contexts), m.method, m.model);
}

/** Removes a chat and its messages (they cascade); a chat that is not there is NotFoundError. */
export function deleteChat(db: Db, chatId: number): void {
  if (db.prepare('DELETE FROM chats WHERE id = ?').run(chatId).changes === 0) throw new NotFoundError(`No chat ${chatId}.`);
}

export function listChats(db: Db): ChatSummary[] {
  return db.prepare('SELECT id, title, created_at AS createdAt FROM chats ORDER BY id DESC').all() as ChatSummary[];
}

/**
 * A chat's messages, their citations and passages naming each note by its path now: a note moved since
 * keeps its id and title (index/note-pipeline.ts), and opening a citation goes by that id.
 */
export function loadChat(db: Db, chatId: number): StoredChatMessage[] {
  const messages = (
    db.prepare('SELECT role, text, citations, contexts FROM chat_messages WHERE chat_id = ? ORDER BY id').all(chatId) as {
      role: 'user' | 'assistant';
      text: string;
      citations: string;
      contexts: string;
    }[]
  ).map((r) => ({ role: r.role, text: r.text, citations: JSON.parse(r.citations) as ChatMessage['citations'], contexts: JSON.parse(r.contexts) as ChatMessage['contexts'] }));
  const ids = [...new Set(messages.flatMap((m) => [...m.citations, ...m.contexts].flatMap((c) => (c.docId === undefined ? [] : [c.docId]))))];
  if (!ids.length) return messages;
  const docs = new Map(
    (db.prepare('SELECT id, rel_path, title FROM documents WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as { id: number; rel_path: string; title: string }[]).map(
      (d) => [d.id, d],
    ),
  );
  // Only where the note still has the cited title: an id a removed note left can be given to another.
  const now = <T extends { docId?: number; docPath: string; docTitle: string }>(c: T): T => {
    const doc = c.docId === undefined ? undefined : docs.get(c.docId);
    return doc && doc.title === c.docTitle ? { ...c, docPath: doc.rel_path } : c;
  };
  return messages.map((m) => ({ ...m, citations: m.citations.map(now), contexts: m.contexts.map(now) }));
}
