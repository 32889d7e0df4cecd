// Language codes (ISO 639-1, as the engine counts notes by them) in words.
const names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });

/** 'de' → 'German'; 'und' (a note whose language could not be told) → 'undetermined'. */
export function languageName(code: string): string {
  if (code === 'und') return 'undetermined';
  if (code === 'multilingual') return 'many languages';
  try {
    return names.of(code) ?? code;
  } catch {
    return code; // not a well-formed code
  }
}

/** "12 notes in English, 3 in German, 2 undetermined", most notes first. */
export function languagesLine(counts: Record<string, number>): string {
  const entries = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return (
    entries
      .map(([code, n], i) => {
        const notes = i === 0 ? `${n.toLocaleString()} ${n === 1 ? 'note' : 'notes'} ` : `${n.toLocaleString()} `;
        return code === 'und' ? `${notes}undetermined` : `${notes}in ${languageName(code)}`;
      })
      .join(', ') || '—'
  );
}
