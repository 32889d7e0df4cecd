/**
 * True when a note's name says nothing about its content: a number, a date, a hash or UUID, an id with a
 * short prefix ("news-00042", "doc_17"), or "Untitled". Such notes are named by their first heading or
 * sentence instead, since a topic like "48213" gives retrieval nothing to match.
 */
export function isOpaqueName(name: string): boolean {
  const bare = name.trim().replace(/\.(md|markdown|txt)$/i, '');
  if (!bare) return true;
  if (/^(untitled|new note|未命名|无标题)(?:[\s_-]*\d+)?$/iu.test(bare)) return true;
  if (!/\p{L}/u.test(bare)) return true; // numbers, dates, times, punctuation
  if (/^[0-9a-f]{8,}$/i.test(bare) && /\d/.test(bare)) return true; // hashes
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(bare)) return true;
  const digits = bare.match(/\p{N}/gu)?.length ?? 0;
  const letters = bare.match(/\p{L}/gu)?.length ?? 0;
  // "id_123", "news-00042", "note12": a short tag in front of a number.
  return digits >= 2 && letters <= 4 && /^[\p{L}]{1,4}[\s_.-]*\p{N}+$/u.test(bare);
}
