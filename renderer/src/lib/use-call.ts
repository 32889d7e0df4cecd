// Loads one contract call's result and reloads when `deps` change; keeps loading/error states explicit.
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
  const [data, setData] = useState<Res<K> | null>(null);
  const [error, setError] = useState<unknown>(null);
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
        setData(r);
        setError(null);
        setLoading(false);
      },
      (e) => {
        if (!live) return;
        setError(e);
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, name, key, tick, ...deps]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, loading, reload };
}
