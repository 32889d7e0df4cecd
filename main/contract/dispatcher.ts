// Server side of the contract: validates a named call's request, runs its handler, validates the
// response, and turns every failure into a WireResult. Events are validated before they leave.
import { calls, events, isCallName, isEventName, type CallName, type EventName, type EventPayload, type ParsedReq, type Res } from './contract.js';
import { contractError, engineError, isInternal, unknownName, type WireResult } from './errors.js';

export type Handlers = { [K in CallName]: (request: ParsedReq<K>) => Promise<Res<K>> | Res<K> };
export type Emit = <E extends EventName>(event: E, payload: EventPayload<E>) => void;
export type RawEmit = (event: string, payload: unknown) => void;

export interface Dispatcher {
  dispatch(name: unknown, request: unknown): Promise<WireResult>;
}

/**
 * `handlers` may cover only some calls when a host forwards the rest elsewhere (the Electron main
 * process answers host.* itself and forwards engine calls to the utility process): `forward` then
 * receives the already validated request. An internal error reaches the caller in words for people;
 * `logInternal` receives the original (by default the console), so its details are not lost.
 */
export function createDispatcher(
  handlers: Partial<Handlers>,
  forward?: (name: CallName, request: unknown) => Promise<WireResult>,
  logInternal: (call: string, err: unknown) => void = (call, err) => console.error(`loci call "${call}" failed:`, err),
): Dispatcher {
  return {
    async dispatch(name, request) {
      if (!isCallName(name)) return { ok: false, error: unknownName('call', name) };
      const spec = calls[name];
      const parsed = spec.request.safeParse(request ?? {});
      if (!parsed.success) return { ok: false, error: contractError(name, 'request', parsed.error) };
      const handler = handlers[name] as ((r: unknown) => unknown) | undefined;
      if (!handler) {
        if (forward) return forward(name, parsed.data);
        return { ok: false, error: { kind: 'engine', call: name, message: `loci call "${name}" is not available in this host` } };
      }
      let result: unknown;
      try {
        result = await handler(parsed.data);
      } catch (err) {
        const error = engineError(name, err);
        if (isInternal(error)) logInternal(name, err);
        return { ok: false, error };
      }
      const checked = spec.response.safeParse(result);
      if (!checked.success) return { ok: false, error: contractError(name, 'response', checked.error) };
      return { ok: true, result: checked.data };
    },
  };
}

/** Wraps a transport's raw send so that only known, valid events go out. */
export function validatedEmit(send: RawEmit, onInvalid: (message: string) => void = console.error): Emit {
  return (event, payload) => {
    if (!isEventName(event)) return onInvalid(unknownName('event', event).message);
    const parsed = events[event].safeParse(payload);
    if (!parsed.success) return onInvalid(contractError(event, 'event', parsed.error).message);
    send(event, parsed.data);
  };
}
