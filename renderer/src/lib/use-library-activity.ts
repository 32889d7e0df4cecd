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
  /** Cancel was asked for and the run has not ended yet. */
  cancelling: boolean;
  /** The last run ended because the user cancelled it (shown as such, not as an error). */
  cancelled: boolean;
}

export type LibraryActivity = Record<string, FolderActivity>;

const idle: FolderActivity = { running: false, progress: null, phases: {}, report: null, error: null, cancelling: false, cancelled: false };

/** Whether a report or error means "the user cancelled": the engine flags reports of cancelled runs. */
export function isCancelled(report: Report | null, error?: string | null): boolean {
  if (report && (report as { cancelled?: unknown }).cancelled === true) return true;
  return !!error && /\bcancel(l)?ed\b|\babort(ed)?\b/i.test(error);
}

export interface LibraryState {
  activity: LibraryActivity;
  version: number;
  markStarted(root: string): void;
  markCancelling(root: string): void;
  forget(root: string): void;
}

export function useLibraryActivity(client: LociClient | null): LibraryState {
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
              cancelled: false,
              cancelling: freshRun ? false : prev.cancelling,
            },
          };
        }),
      ),
      client.on('index.report', ({ root, report }) => {
        // A report ends the run whatever it says: views refetch (a cancelled run may have indexed some notes).
        setActivity((a) => ({ ...a, [root]: { ...(a[root] ?? idle), running: false, report, error: null, cancelling: false, cancelled: isCancelled(report) } }));
        setVersion((v) => v + 1);
      }),
      // A run the user stopped is not an error: it just ends (no red message).
      client.on('index.error', ({ root, message, cancelled: stopped }) => {
        setActivity((a) => {
          const prev = a[root] ?? idle;
          const cancelled = Boolean(stopped) || prev.cancelling || isCancelled(null, message);
          return { ...a, [root]: { ...prev, running: false, cancelling: false, cancelled, error: cancelled ? null : message } };
        });
        setVersion((v) => v + 1);
      }),
    ];
    return () => offs.forEach((off) => off());
  }, [client]);

  const markStarted = (root: string) =>
    setActivity((a) => ({ ...a, [root]: { ...(a[root] ?? idle), running: true, phases: {}, progress: null, error: null, cancelled: false, cancelling: false } }));

  const markCancelling = (root: string) => setActivity((a) => ({ ...a, [root]: { ...(a[root] ?? idle), cancelling: true } }));

  const forget = (root: string) =>
    setActivity((a) => {
      const { [root]: _gone, ...rest } = a;
      return rest;
    });

  return { activity, version, markStarted, markCancelling, forget };
}
