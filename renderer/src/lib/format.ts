export function formatEta(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '';
  if (seconds < 1) return 'under a second left';
  if (seconds < 60) return `about ${Math.round(seconds)} s left`;
  const m = Math.floor(seconds / 60);
  return `about ${m} min ${Math.round(seconds % 60)} s left`;
}

export function lineRange(from: number | null, to: number | null): string {
  if (from === null) return '';
  return to !== null && to !== from ? `lines ${from}–${to}` : `line ${from}`;
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? word : many}`;
}
