/** An fs error as one line for a skip record: "ENOENT: no such file or directory, open '…'". */
export function describeError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (!e || typeof e.message !== 'string') return String(err);
  return e.code && !e.message.startsWith(e.code) ? `${e.code}: ${e.message}` : e.message;
}
