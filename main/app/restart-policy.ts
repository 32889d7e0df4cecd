// When the engine process dies unexpectedly the shell starts it again, waiting longer after each crash
// (exponential backoff), and gives up after too many crashes in a short time — a crash loop (a bad
// setting, a broken index) must end in a clear error, not a process respawned forever.
export interface RestartPolicyOptions {
  /** Crashes allowed within `windowMs` before giving up. */
  maxRestarts?: number;
  windowMs?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  now?: () => number;
}

export type RestartDecision =
  | { restart: true; delayMs: number; attempt: number }
  | { restart: false; reason: string; crashes: number };

export class RestartPolicy {
  private readonly maxRestarts: number;
  private readonly windowMs: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly now: () => number;
  private crashes: number[] = [];

  constructor(opts: RestartPolicyOptions = {}) {
    this.maxRestarts = opts.maxRestarts ?? 5;
    this.windowMs = opts.windowMs ?? 120_000;
    this.baseDelayMs = opts.baseDelayMs ?? 500;
    this.maxDelayMs = opts.maxDelayMs ?? 15_000;
    this.now = opts.now ?? Date.now;
  }

  /** The engine exited without being asked to: restart it (after the delay), or give up. */
  onCrash(): RestartDecision {
    const t = this.now();
    // Crashes long ago say nothing about a loop now.
    this.crashes = this.crashes.filter((c) => t - c < this.windowMs);
    this.crashes.push(t);
    const n = this.crashes.length;
    if (n > this.maxRestarts) {
      return { restart: false, crashes: n, reason: `the engine stopped ${n} times within ${Math.round(this.windowMs / 1000)} s` };
    }
    return { restart: true, attempt: n, delayMs: Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (n - 1)) };
  }

  /** After giving up, the user may ask to try again from a clean slate. */
  reset(): void {
    this.crashes = [];
  }
}
