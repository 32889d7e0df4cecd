// The folder field: in the desktop app a "Choose…" button opens the system's folder dialog; in browser
// mode (the folder lives on the server machine) the path field completes from the server's folders.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useApp } from '../lib/app-context.js';
import { Button, ui } from './ui.js';

export function FolderField({ onSubmit, submitLabel = 'Add folder', autoFocus }: { onSubmit(root: string): void; submitLabel?: string; autoFocus?: boolean }) {
  const { client, host } = useApp();
  const [folder, setFolder] = useState('');
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const [pickError, setPickError] = useState<string | null>(null);
  const listId = useId();
  // In the desktop app the system dialog chooses; in browser mode the server completes typed paths.
  const canComplete = !host?.canPickFolder;

  useEffect(() => {
    if (!canComplete || !folder.trim()) return setSuggestions([]);
    let live = true;
    const timer = setTimeout(() => {
      client.call('library.completePath', { prefix: folder }).then(
        (r) => live && setSuggestions(r.matches),
        () => live && setSuggestions([]),
      );
    }, 120);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [client, folder, canComplete]);

  function submit(e: FormEvent) {
    e.preventDefault();
    const root = folder.trim().replace(/(.)[\\/]+$/, '$1');
    if (root) onSubmit(root);
  }

  async function pick() {
    setPickError(null);
    try {
      const chosen = await client.call('host.pickFolder', {});
      if (chosen) {
        setFolder(chosen);
        onSubmit(chosen);
      }
    } catch (err) {
      setPickError(err instanceof Error ? err.message : String(err));
    }
  }

  return (
    <form className={ui.stack} onSubmit={submit} aria-label="Add a notes folder">
      <span className={ui.row}>
        <label htmlFor={`${listId}-input`} className="sr-only">
          Folder path
        </label>
        {host?.canPickFolder && (
          <Button variant="primary" onClick={pick}>
            Choose a folder…
          </Button>
        )}
        <input
          id={`${listId}-input`}
          className={ui.input}
          autoFocus={autoFocus}
          list={canComplete ? `${listId}-paths` : undefined}
          autoComplete="off"
          spellCheck={false}
          placeholder={host?.canPickFolder ? 'or type its path' : 'Full path of a notes folder on the machine running Loci, e.g. /home/me/notes'}
          value={folder}
          onChange={(e) => setFolder(e.target.value)}
        />
        {canComplete && (
          <datalist id={`${listId}-paths`} data-testid="folder-suggestions">
            {suggestions.map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
        )}
        <Button type="submit" variant={host?.canPickFolder ? 'plain' : 'primary'} disabled={!folder.trim()}>
          {submitLabel}
        </Button>
      </span>
      {pickError && (
        <span role="alert" className={ui.muted}>
          {pickError}
        </span>
      )}
    </form>
  );
}
