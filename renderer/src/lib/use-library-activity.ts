// Live indexing state per folder, fed by the contract's index.* events. Lives at the top of the app so
// progress survives switching views.
import { useEffect, useState } from 'react';
import type { LociClient } from '../../../main/contract/client.js';
import type { EventPayload } from '../../../main/contract/contract.js';

type Progress = EventPayload<'index.progress'>['progress'];
type Report = EventPayload<'index.report'>['report'];

export interface FolderActivity {
  running: boolean;
  progress: Progress | null;
  /** Last progress seen per phase, to show every phase's counts, not just the current one. */
  phases: Partial<Record<Progress['phase'], Progress>>;
  report: Report | null;
  error: string | null;
}

export type LibraryActivity = Record<string, FolderActivity>;

const idle: FolderActivity = { running: false, progress: null, phases: {}, report: null, error: null };

export function useLibraryActivity(client: LociClient | null): {
  activity: LibraryActivity;
  version: number;
  markStarted(root: string): void;
  forget(root: string): void;
} {
  const [activity, setActivity] = useState<LibraryActivity>({});
  const [version, setVersion] = useState(0);

  useEffect(() => {
    if (!client) return;
    const offs = [
      client.on('index.progress', ({ root, progress }) =>
        setActivity((a) => {
          const prev = a[root] ?? idle;
          const freshRun = !prev.running;
          return {
            ...a,
            [root]: {
              ...prev,
              running: progress.phase !== 'done',
              progress,
              phases: { ...(freshRun ? {} : prev.phases), [progress.phase]: progress },
              error: null,
            },
          };
        }),
      ),
      client.on('index.report', ({ root, report }) => {
        setActivity((a) => ({ ...a, [root]: { ...(a[root] ?? idle), running: false, report, error: null } }));
        setVersion((v) => v + 1);
      }),
      // A run the user stopped is not an error: it just ends (no red message).
      client.on('index.error', ({ root, message, cancelled }) =>
        setActivity((a) => ({ ...a, [root]: { ...(a[root] ?? idle), running: false, error: cancelled ? null : message } })),
      ),
    ];
    return () => offs.forEach((off) => off());
  }, [client]);

  const markStarted = (root: string) =>
    setActivity((a) => ({ ...a, [root]: { ...(a[root] ?? idle), running: true, phases: {}, progress: null, error: null } }));

  const forget = (root: string) =>
    setActivity((a) => {
      const { [root]: _gone, ...rest } = a;
      return rest;
    });

  return { activity, version, markStarted, forget };
}
