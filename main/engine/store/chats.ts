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

export function listChats(db: Db): ChatSummary[] {
  return db.prepare('SELECT id, title, created_at AS createdAt FROM chats ORDER BY id DESC').all() as ChatSummary[];
}

export function loadChat(db: Db, chatId: number): StoredChatMessage[] {
  return (
    db.prepare('SELECT role, text, citations, contexts FROM chat_messages WHERE chat_id = ? ORDER BY id').all(chatId) as {
      role: 'user' | 'assistant';
      text: string;
      citations: string;
      contexts: string;
    }[]
  ).map((r) => ({ role: r.role, text: r.text, citations: JSON.parse(r.citations) as ChatMessage['citations'], contexts: JSON.parse(r.contexts) as ChatMessage['contexts'] }));
}
