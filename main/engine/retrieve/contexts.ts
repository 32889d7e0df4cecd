import type { Db } from '../store/db.js';
import type { RetrievedContext } from '../types.js';
import type { Scored } from '../embed/vector-matrix.js';
import { PATH_SEPARATOR } from '../store/documents.js';

interface ChunkRow {
  id: number;
  text: string;
  heading_path: string;
  line_from: number;
  line_to: number;
  document_id: number;
  rel_path: string;
  title: string;
}

/** Turns scored chunk ids into contexts with provenance; the route path stands in for the fact path. */
export function chunkContexts(db: Db, scored: Scored[]): RetrievedContext[] {
  if (scored.length === 0) return [];
  const rows = db
    .prepare(
      `SELECT c.id, c.text, c.heading_path, c.line_from, c.line_to, c.document_id, d.rel_path, d.title
       FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(scored.map((s) => s.id))) as ChunkRow[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return scored.flatMap((s) => {
    const r = byId.get(s.id);
    if (!r) return [];
    const path = [r.title, ...(JSON.parse(r.heading_path) as string[])].join(PATH_SEPARATOR);
    return [
      {
        text: r.text,
        docId: r.document_id,
        docPath: r.rel_path,
        docTitle: r.title,
        lineFrom: r.line_from,
        lineTo: r.line_to,
        factPath: path,
        score: s.score,
        kind: 'chunk' as const,
        chunkId: r.id,
      },
    ];
  });
}
