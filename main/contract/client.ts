// Client side of the contract, for any transport: the renderer (through preload or the browser
// transport), tests and scripts all call the engine through this.
import { calls, events, isEventName, type CallName, type EventName, type EventPayload, type Req, type Res } from './contract.js';
import { contractError, LociCallError, type WireResult } from './errors.js';

export interface Transport {
  invoke(name: CallName, request: unknown): Promise<WireResult>;
  /** Returns an unsubscribe function. */
  subscribe(listener: (event: string, payload: unknown) => void): () => void;
}

export interface LociClient {
  call<K extends CallName>(name: K, request: Req<K>): Promise<Res<K>>;
  on<E extends EventName>(event: E, handler: (payload: EventPayload<E>) => void): () => void;
  /** Stops listening for events (closes the event socket, for transports that have one). */
  close(): void;
}

export function createClient(transport: Transport): LociClient {
  const handlers = new Map<EventName, Set<(payload: never) => void>>();
  let unsubscribe: (() => void) | null = null;

  function ensureSubscribed(): void {
    if (unsubscribe) return;
    unsubscribe = transport.subscribe((event, payload) => {
      if (!isEventName(event)) return;
      const parsed = events[event].safeParse(payload);
      if (!parsed.success) {
        console.warn(contractError(event, 'event', parsed.error).message);
        return;
      }
      for (const h of handlers.get(event) ?? []) (h as (p: unknown) => void)(parsed.data);
    });
  }

  return {
    async call(name, request) {
      const spec = calls[name];
      // Checked here as well as at the engine so a bad UI payload fails fast with the same message.
      const parsed = spec.request.safeParse(request ?? {});
      if (!parsed.success) throw new LociCallError(contractError(name, 'request', parsed.error));
      const wire = await transport.invoke(name, parsed.data);
      if (!wire.ok) throw new LociCallError(wire.error);
      const result = spec.response.safeParse(wire.result);
      if (!result.success) throw new LociCallError(contractError(name, 'response', result.error));
      return result.data as Res<typeof name>;
    },
    on(event, handler) {
      let set = handlers.get(event);
      if (!set) handlers.set(event, (set = new Set()));
      set.add(handler as (payload: never) => void);
      ensureSubscribed();
      return () => {
        set.delete(handler as (payload: never) => void);
      };
    },
    close() {
      unsubscribe?.();
      unsubscribe = null;
      handlers.clear();
    },
  };
}
