// An error as people read it: what happened and what to do, with the call's own message kept as details
// (shown behind a toggle). Reads the contract's error kinds (contract/errors.ts) without importing the class.
import type { LociCallError } from '../../../main/contract/errors.js';

export interface ErrorText {
  what: string;
  todo: string | null;
  /** The message as the call reported it, when it says more than `what`. */
  details: string | null;
}

type CallErrorLike = Pick<LociCallError, 'kind' | 'code' | 'issues' | 'message'>;

const isCallError = (e: unknown): e is CallErrorLike => e instanceof Error && 'kind' in e && typeof (e as { kind: unknown }).kind === 'string';

/** The engine's own sentence, without the `loci call "…" failed:` wrapper. */
const own = (message: string) => message.replace(/^loci (call|event) "[^"]*"(?: failed)?:\s*/, '');

export function errorText(error: unknown): ErrorText {
  const message = error instanceof Error ? error.message : String(error);
  if (!isCallError(error)) return { what: message, todo: null, details: null };
  const details = message;
  if (error.kind === 'transport') return { what: 'Loci’s engine could not be reached.', todo: 'Check that Loci is still running, then reload this window.', details };
  if (error.kind === 'contract') {
    const issue = error.issues[0];
    return { what: issue ? `That was not accepted: ${issue.message}.` : 'That request was not accepted.', todo: 'Check what you entered and try again.', details };
  }
  switch (error.code) {
    case 'not_found':
      return { what: own(message), todo: 'It may have been moved or removed: re-index its folder, or pick it again.', details };
    case 'conflict':
    case 'locked':
      return { what: own(message), todo: 'Wait for the other task to finish, then try again.', details };
    case 'invalid':
      return { what: own(message), todo: 'Check what you entered and try again.', details };
    default:
      return { what: 'Something went wrong inside Loci.', todo: 'Try again; if it keeps happening, the details below say what failed.', details };
  }
}
