/** The key under which names merge across notes: NFKC, lowercase, punctuation and whitespace collapsed. */
export function normalizeName(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A link target's key: `[[Folder/Some Note.md#Heading|alias]]` meets the note titled "Some Note"
 * (and the entity of that name).
 */
export function normalizeLinkTarget(target: string): string {
  let s = target.replace(/[#|].*$/, '').trim();
  s = s.replace(/\.(md|markdown|txt)$/i, '');
  s = s.slice(s.lastIndexOf('/') + 1);
  return normalizeName(s);
}
