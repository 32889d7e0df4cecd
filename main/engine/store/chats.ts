import type { Db } from './db.js';
import type { Citation } from '../api.js';
import { NotFoundError } from '../errors.js';

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
  m: { role: 'user' | 'assistant'; text: string; citations: Citation[]; method: string | null; model: string | null },
): void {
  db.prepare(
    "INSERT INTO chat_messages (chat_id, role, text, citations, method, model, created_at) VALUES (?, ?, ?, ?, ?, ?, datetime('now'))",
  ).run(chatId, m.role, m.text, JSON.stringify(m.citations), m.method, m.model);
}

export function listChats(db: Db): { id: number; title: string; createdAt: string }[] {
  return db.prepare('SELECT id, title, created_at AS createdAt FROM chats ORDER BY id DESC').all() as {
    id: number;
    title: string;
    createdAt: string;
  }[];
}

export function loadChat(db: Db, chatId: number): { role: 'user' | 'assistant'; text: string; citations: Citation[] }[] {
  return (
    db.prepare('SELECT role, text, citations FROM chat_messages WHERE chat_id = ? ORDER BY id').all(chatId) as {
      role: 'user' | 'assistant';
      text: string;
      citations: string;
    }[]
  ).map((r) => ({ role: r.role, text: r.text, citations: JSON.parse(r.citations) as Citation[] }));
}
