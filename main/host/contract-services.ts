// The contract's calls as services: a call `ns.method` is answered by `services[ns][method]` with the
// request the contract has validated (a call without a namespace, `ask` or `stats`, by `services.ask.ask`,
// `services.stats.stats`). The type is derived from the contract, so a call without its method fails to
// compile — the idea of VS Code's ProxyChannel.fromService.
import { callNames, type CallName, type ParsedReq, type Res } from '../contract/contract.js';
import type { Handlers } from '../contract/dispatcher.js';

type Route<K extends string> = K extends `${infer NS}.${infer M}` ? [NS, M] : [K, K];
type NamespaceOf<K extends CallName> = Route<K>[0];
export type Namespace = NamespaceOf<CallName>;

/** One object per contract namespace, one method per call, each taking the call's validated request. */
export type ContractServices = {
  [NS in Namespace]: { [K in CallName as NamespaceOf<K> extends NS ? Route<K>[1] : never]: (request: ParsedReq<K>) => Res<K> | Promise<Res<K>> };
};

export function routeOf(name: CallName): [namespace: string, method: string] {
  const dot = name.indexOf('.');
  return dot < 0 ? [name, name] : [name.slice(0, dot), name.slice(dot + 1)];
}

/** The dispatcher's handlers: every call routed to its service's method. */
export function handlersFrom(services: ContractServices): Handlers {
  return route(services, true) as Handlers;
}

/** Handlers for the namespaces given only (a host that forwards the rest, a test of one namespace). */
export function someHandlersFrom(services: Partial<ContractServices>): Partial<Handlers> {
  return route(services, false);
}

function route(services: Partial<ContractServices>, complete: boolean): Partial<Handlers> {
  const handlers: Record<string, (request: unknown) => unknown> = {};
  for (const name of callNames) {
    const [ns, method] = routeOf(name);
    const service = (services as Record<string, Record<string, (request: unknown) => unknown> | undefined>)[ns];
    if (!service && !complete) continue;
    const fn = service?.[method];
    if (typeof fn !== 'function') throw new Error(`no service answers the contract's call "${name}" (services.${ns}.${method})`);
    handlers[name] = (request) => fn.call(service, request);
  }
  return handlers as Partial<Handlers>;
}
