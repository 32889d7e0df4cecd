import type { Db } from '../store/db.js';
import type { RetrievedContext } from '../types.js';
import type { Scored } from '../embed/vector-matrix.js';
import { PATH_SEPARATOR } from '../../contract/shapes/domain.js';
import { chunkRows } from '../store/retrieval.js';

/** Turns scored chunk ids into contexts with provenance; the route path stands in for the fact path. */
export function chunkContexts(db: Db, scored: Scored[]): RetrievedContext[] {
  if (scored.length === 0) return [];
  const rows = chunkRows(db, scored.map((s) => s.id));
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
