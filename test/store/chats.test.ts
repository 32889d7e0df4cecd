import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openDb } from '../../main/engine/store/db.js';
import { migrations } from '../../main/engine/store/migrations/index.js';
import { addChatMessage, deleteChat, listChats, loadChat, newChat } from '../../main/engine/store/chats.js';
import type { RetrievedContext } from '../../main/engine/types.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-chats-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const passage: RetrievedContext = { text: 'Brew at 94 °C.', docId: 1, docPath: 'brew.md', docTitle: 'Brew', lineFrom: 3, lineTo: 4, factPath: 'Brew › Temperature', score: 0.5, kind: 'chunk', chunkId: 7 };

describe('conversations keep the passages an answer was drawn from (migration 0007)', () => {
  it('stores and loads them with the answer; a question has none', () => {
    const db = openDb(join(dir, 'index.db'));
    try {
      const chat = newChat(db, 'How hot?');
      addChatMessage(db, chat, { role: 'user', text: 'How hot?', citations: [], contexts: [], method: 'loci', model: null });
      addChatMessage(db, chat, { role: 'assistant', text: 'At 94 °C [1]', citations: [], contexts: [passage], method: 'loci', model: null });
      expect(loadChat(db, chat).map((m) => m.contexts)).toEqual([[], [passage]]);
    } finally {
      db.close();
    }
  });

  it('deletes a conversation with its messages, leaving the others; a chat that is not there is not found', () => {
    const db = openDb(join(dir, 'index.db'));
    try {
      const [a, b] = ['First?', 'Second?'].map((q) => {
        const chat = newChat(db, q);
        addChatMessage(db, chat, { role: 'user', text: q, citations: [], contexts: [], method: 'loci', model: null });
        addChatMessage(db, chat, { role: 'assistant', text: 'An answer', citations: [], contexts: [passage], method: 'loci', model: null });
        return chat;
      });
      deleteChat(db, a!);
      expect(listChats(db).map((c) => c.id)).toEqual([b]);
      expect(db.prepare('SELECT chat_id FROM chat_messages').pluck().all()).toEqual([b, b]);
      expect(() => deleteChat(db, a!)).toThrow(`No chat ${a}.`);
    } finally {
      db.close();
    }
  });

  it('upgrades an index written at schema 6: a saved conversation stays, its answer with no passages', () => {
    const file = join(dir, 'v6.db');
    const raw = new Database(file);
    for (const m of migrations.filter((m) => m.version <= 6)) raw.exec(m.sql);
    raw.pragma('user_version = 6');
    const chat = raw.prepare("INSERT INTO chats (title, created_at) VALUES ('Old', datetime('now')) RETURNING id").pluck().get() as number;
    raw
      .prepare("INSERT INTO chat_messages (chat_id, role, text, citations, created_at) VALUES (?, 'assistant', 'An old answer', '[]', datetime('now'))")
      .run(chat);
    raw.close();

    const up = openDb(file);
    try {
      expect(loadChat(up, chat)).toEqual([{ role: 'assistant', text: 'An old answer', citations: [], contexts: [] }]);
    } finally {
      up.close();
    }
  });
});
