// A note's status as the Library shows it: fast (indexed without a model), model (the model pass wrote
// its facts), skipped (with the reason) or failed (with the reason; its fast-mode rows still stand).
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
  const reason = doc.reason ?? doc.error ?? null;
  return { status: doc.state, reason: doc.state === 'fast' || doc.state === 'model' ? null : reason, readable: doc.state !== 'skipped' && doc.chunks > 0 };
}
