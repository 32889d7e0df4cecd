// The kinds of failure a call can end in, declared once: the engine's errors carry one, the contract
// maps each to an HTTP status for browser mode and carries it as is over IPC.
export const ERROR_CODES = ['invalid', 'not_found', 'conflict', 'locked', 'internal'] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
