// Loads one contract call's result and reloads when `deps` change; keeps loading/error states explicit.
// A result is only ever returned for the request it answered: while another request loads, the old
// result is not shown as the new one's (a mind map kept the previous note's nodes).
import { useCallback, useEffect, useState } from 'react';
import type { CallName, Req, Res } from '../../../main/contract/contract.js';
import { useApp } from './app-context.js';

export interface CallState<T> {
  data: T | null;
  error: unknown;
  loading: boolean;
  reload(): void;
}

export function useCall<K extends CallName>(name: K, request: Req<K> | null, deps: unknown[] = []): CallState<Res<K>> {
  const { client } = useApp();
  const [result, setResult] = useState<{ key: string; data: Res<K> } | null>(null);
  const [failure, setFailure] = useState<{ key: string; error: unknown } | null>(null);
  const [loading, setLoading] = useState(false);
  const [tick, setTick] = useState(0);
  const key = JSON.stringify(request);

  useEffect(() => {
    if (request === null) return;
    let live = true;
    setLoading(true);
    client.call(name, request).then(
      (r) => {
        if (!live) return;
        setResult({ key, data: r });
        setFailure(null);
        setLoading(false);
      },
      (e) => {
        if (!live) return;
        setFailure({ key, error: e });
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, name, key, tick, ...deps]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  const answered = result?.key === key || failure?.key === key;
  return { data: result?.key === key ? result.data : null, error: failure?.key === key ? failure.error : null, loading: loading || (request !== null && !answered), reload };
}
