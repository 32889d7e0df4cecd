import { normaliseEntity } from '../text/entity-norm.js';
import { withoutLinkPosition } from '../ingest/links.js';

/**
 * The one key under which names merge across notes and extractors: entities, wikilink targets,
 * document titles (see normaliseEntity for the rules).
 */
export const normalizeName = normaliseEntity;

/**
 * A link target's key: `[[Folder/Some Note.md#Heading|alias]]` meets the note titled "Some Note"
 * (and the entity of that name).
 */
export function normalizeLinkTarget(target: string): string {
  let s = target.replace(/[#|].*$/, '').trim();
  s = withoutLinkPosition(s);
  s = s.replace(/\.(md|markdown|txt)$/i, '');
  s = s.slice(s.lastIndexOf('/') + 1);
  return normalizeName(s);
}
