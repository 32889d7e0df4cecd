// The background model pass's rows: which notes still lack a model's extraction, and one `jobs` row per
// note attempt (kind 'llm-extract') with its outcome and reason — what the Library shows as each note's
// state (fast / model / failed with the reason).
import type { Db } from './db.js';

export interface RefineTodo {
  id: number;
  /** Its library folder. */
  root: string;
  relPath: string;
  contentHash: string | null;
}

const docFilter = (docIds?: number[]) => (docIds ? `AND d.id IN (${docIds.map(Number).join(',') || 'NULL'})` : '');

export function countIndexedDocuments(db: Db, docIds?: number[]): number {
  return (db.prepare(`SELECT count(*) AS n FROM documents d WHERE d.status = 'indexed' ${docFilter(docIds)}`).get() as { n: number }).n;
}

/** Indexed notes without this extractor's mind map (the cache key: content hash + model + prompt version). */
export function listRefineTodo(db: Db, extractor: string, docIds?: number[]): RefineTodo[] {
  return db
    .prepare(
      `SELECT d.id, d.root, d.rel_path AS relPath, d.content_hash AS contentHash FROM documents d
       WHERE d.status = 'indexed' ${docFilter(docIds)}
         AND NOT EXISTS (SELECT 1 FROM mm_nodes m WHERE m.document_id = d.id AND m.extractor = ?)
       ORDER BY d.id`,
    )
    .all(extractor) as RefineTodo[];
}

export function currentContentHash(db: Db, docId: number): string | null | undefined {
  const row = db.prepare('SELECT content_hash FROM documents WHERE id = ?').get(docId) as { content_hash: string | null } | undefined;
  return row ? row.content_hash : undefined;
}

/** One `jobs` row per note attempt. Creating it closes out rows a killed run left 'running'. */
export function modelPassJobs(db: Db, extractor: string) {
  const insert = db.prepare(
    `INSERT INTO jobs (kind, document_id, extractor, status, attempts, updated_at) VALUES ('llm-extract', ?, ?, 'running', 1, datetime('now')) RETURNING id`,
  );
  const update = db.prepare(`UPDATE jobs SET status = ?, error = ?, updated_at = datetime('now') WHERE id = ?`);
  db.prepare(`UPDATE jobs SET status = 'failed', error = 'interrupted', updated_at = datetime('now') WHERE kind = 'llm-extract' AND status = 'running'`).run();
  db.prepare(`DELETE FROM jobs WHERE kind = 'llm-extract' AND status = 'done' AND extractor != ?`).run(extractor);
  return {
    start: (docId: number) => (insert.get(docId, extractor) as { id: number }).id,
    finish: (id: number, status: 'done' | 'failed', error: string | null) => update.run(status, error, id),
  };
}

export type ModelPassState = 'fast' | 'model' | 'running' | 'failed';

export interface ModelPassStatus {
  documentId: number;
  relPath: string;
  state: ModelPassState;
  /** The extractor of the note's rows ('fast' or `llm:<model>@<prompt>`). */
  extractor: string | null;
  /** Why the last model attempt failed, or what it recorded (output it could not use) when it succeeded. */
  reason: string | null;
  updatedAt: string | null;
}

/**
 * Each indexed note's model-pass state: 'model' when its rows come from a model, else the outcome of its
 * latest attempt ('running', 'failed' with the reason), else 'fast'.
 */
export function modelPassStatus(db: Db, docIds?: number[]): ModelPassStatus[] {
  const rows = db
    .prepare(
      `SELECT d.id AS documentId, d.rel_path AS relPath,
         (SELECT m.extractor FROM mm_nodes m WHERE m.document_id = d.id LIMIT 1) AS extractor,
         j.status AS jobStatus, j.error AS jobError, j.updated_at AS updatedAt
       FROM documents d
       LEFT JOIN jobs j ON j.id = (SELECT max(id) FROM jobs WHERE kind = 'llm-extract' AND document_id = d.id)
       WHERE d.status = 'indexed' ${docFilter(docIds)}
       ORDER BY d.rel_path`,
    )
    .all() as { documentId: number; relPath: string; extractor: string | null; jobStatus: string | null; jobError: string | null; updatedAt: string | null }[];
  return rows.map((r) => {
    const byModel = r.extractor?.startsWith('llm:') ?? false;
    const state: ModelPassState = byModel ? 'model' : r.jobStatus === 'running' ? 'running' : r.jobStatus === 'failed' ? 'failed' : 'fast';
    return {
      documentId: r.documentId,
      relPath: r.relPath,
      state,
      extractor: r.extractor,
      reason: state === 'fast' ? null : r.jobError,
      updatedAt: r.updatedAt,
    };
  });
}
