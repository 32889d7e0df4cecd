// A note's status as the Library shows it. The engine reports fast (indexed without a model), model
// (the model pass wrote its facts), skipped (with the reason) or failed (with the reason); an older
// engine says indexed/skipped/error, read here as fast/skipped/failed.
import type { Res } from '../../../main/contract/contract.js';

type Doc = Res<'library.documents'>[number];
export type NoteStatus = 'fast' | 'model' | 'skipped' | 'failed';

export const STATUS_LABEL: Record<NoteStatus, string> = {
  fast: 'Fast',
  model: 'Model',
  skipped: 'Skipped',
  failed: 'Failed',
};

export function noteStatus(doc: Doc): { status: NoteStatus; reason: string | null; readable: boolean } {
  const extra = doc as { reason?: string | null; extractor?: string | null; state?: NoteStatus };
  const reason = extra.reason ?? doc.error ?? null;
  // The engine's own per-note state when it reports one.
  if (extra.state) return { status: extra.state, reason: extra.state === 'fast' || extra.state === 'model' ? null : reason, readable: extra.state !== 'skipped' && doc.chunks > 0 };
  const raw = String(doc.status);
  switch (raw) {
    case 'model':
      return { status: 'model', reason, readable: true };
    case 'fast':
    case 'indexed':
      return { status: extra.extractor && extra.extractor !== 'fast' ? 'model' : 'fast', reason: null, readable: true };
    case 'skipped':
      return { status: 'skipped', reason, readable: false };
    default:
      // A note whose model pass failed is still readable (its fast-mode rows stand).
      return { status: 'failed', reason, readable: doc.chunks > 0 };
  }
}
