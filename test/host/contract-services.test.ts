// Handlers derived from the contract and the services: each call `ns.method` reaches services[ns][method]
// with the validated request, a namespace without one of its calls is refused when the host is composed.
import { describe, expect, it } from 'vitest';
import { callNames } from '../../main/contract/contract.js';
import { createDispatcher } from '../../main/contract/dispatcher.js';
import { handlersFrom, routeOf, someHandlersFrom, type ContractServices } from '../../main/host/contract-services.js';

describe('contract services', () => {
  it('routes a namespaced call to its method and a bare call to the method of its own name', () => {
    expect(routeOf('library.setScope')).toEqual(['library', 'setScope']);
    expect(routeOf('ask.cancel')).toEqual(['ask', 'cancel']);
    expect(routeOf('ask')).toEqual(['ask', 'ask']);
    expect(callNames.every((n) => routeOf(n).every((part) => part.length > 0))).toBe(true);
  });

  it('hands the method the request the contract validated, with the service as `this`', async () => {
    const seen: unknown[] = [];
    const chats = {
      prefix: 'chat',
      list() {
        return [{ id: 1, title: `${this.prefix} one`, createdAt: '2026-01-01' }];
      },
      get: (r: { id: number }) => (seen.push(r), []),
      delete: () => ({}),
    };
    const d = createDispatcher(someHandlersFrom({ chats } as unknown as Partial<ContractServices>));
    expect(await d.dispatch('chats.get', { id: 7 })).toEqual({ ok: true, result: [] });
    expect(seen).toEqual([{ id: 7 }]);
    const refused = await d.dispatch('chats.get', { id: -1 });
    expect(refused.ok).toBe(false);
    expect(seen).toHaveLength(1);
    const listed = await d.dispatch('chats.list', {});
    expect(listed.ok && (listed.result as { title: string }[])[0]?.title).toBe('chat one');
  });

  it('refuses services that leave a call of the contract unanswered', () => {
    expect(() => handlersFrom({} as ContractServices)).toThrow(/no service answers the contract's call "library.roots" \(services.library.roots\)/);
    expect(() => someHandlersFrom({ chats: { list: () => [] } } as unknown as Partial<ContractServices>)).toThrow(/chats.get/);
  });
});
