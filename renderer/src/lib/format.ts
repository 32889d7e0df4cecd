/** Time left as a reader says it: seconds under a minute, minutes under an hour, then hours and minutes. */
export function formatEta(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '';
  if (seconds < 1) return 'under a second left';
  const s = Math.round(seconds);
  if (s < 60) return `about ${s} s left`;
  if (s < 600) return `about ${Math.floor(s / 60)} min ${s % 60} s left`;
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `about ${minutes} min left`;
  return `about ${Math.floor(minutes / 60)} h ${minutes % 60} min left`;
}

export function lineRange(from: number | null, to: number | null): string {
  if (from === null) return '';
  return to !== null && to !== from ? `lines ${from}–${to}` : `line ${from}`;
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? word : many}`;
}

/** A duration as an estimate reads: "about 40 s", "about 12 min", "about 2 h 5 min". */
export function aboutDuration(seconds: number): string {
  if (seconds < 1) return 'under a second';
  const s = Math.round(seconds);
  if (s < 60) return `about ${s} s`;
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `about ${minutes} min`;
  return `about ${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
