import { PATH_SEPARATOR } from '../../../main/contract/schemas.js';
import { ui } from './ui.js';

/**
 * Where a cited fact or a passage sits in its note: the path before its last label muted, the last label
 * (the fact, or the passage's section) as the title. With the whole path bold, a news article's topic (its
 * first sentence) outweighed the fact under it in every card.
 */
export function PathTitle({ path }: { path: string }) {
  const at = path.lastIndexOf(PATH_SEPARATOR);
  const lead = at < 0 ? '' : path.slice(0, at + PATH_SEPARATOR.length);
  return (
    <span className={ui.sourceTitle}>
      {lead && <span className={ui.sourcePath}>{lead}</span>}
      {path.slice(lead.length)}
    </span>
  );
}
