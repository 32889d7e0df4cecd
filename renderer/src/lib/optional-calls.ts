// Calls the UI uses that the engine may not offer yet (other parts of the engine land them on their
// own schedule, and an older engine may serve this UI). A view asks `available(name)` and shows a
// "not available" state instead of failing; when the call exists, it goes through the typed client
// with the contract's own validation. The expected shapes live here until the contract declares them;
// once it does, these types are replaced by Res<'…'> of the contract.
import type { LociClient } from '../../../main/contract/client.js';
import { isCallName, type CallName } from '../../../main/contract/contract.js';

export type PendingCall = 'host.openInEditor';

export function available(name: PendingCall | CallName): boolean {
  return isCallName(name);
}

/** Calls a contract entry by a name the compiler may not know yet; throws NotAvailable when absent. */
export async function callOptional<T>(client: LociClient, name: PendingCall, request: unknown): Promise<T> {
  if (!isCallName(name)) throw new NotAvailable(name);
  return (await (client.call as (n: string, r: unknown) => Promise<unknown>)(name, request)) as T;
}

export class NotAvailable extends Error {
  constructor(readonly call: string) {
    super(`This engine does not offer "${call}" yet.`);
    this.name = 'NotAvailable';
  }
}
