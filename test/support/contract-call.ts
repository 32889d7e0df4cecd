// A contract call through a dispatcher that must succeed, typed by the contract (tests of the host's calls).
import type { CallName, Req, Res } from '../../main/contract/contract.js';
import type { Dispatcher } from '../../main/contract/dispatcher.js';

export async function mustCall<K extends CallName>(d: Dispatcher, name: K, request: Req<K>): Promise<Res<K>> {
  const r = await d.dispatch(name, request);
  if (!r.ok) throw new Error(r.error.message);
  return r.result as Res<K>;
}
