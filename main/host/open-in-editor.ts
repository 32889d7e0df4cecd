// "Open in my editor": the note goes to the program the user already edits notes with. By default that is
// the system's opener for the file (the same in Electron and browser mode: both run on the user's
// machine); LOCI_OPEN_COMMAND names another, e.g. `code -g {file}:{line}` or `subl {file}:{line}`.
import { spawn } from 'node:child_process';
import { UserError } from '../engine/errors.js';

function systemOpener(): string[] {
  if (process.platform === 'darwin') return ['open'];
  if (process.platform === 'win32') return ['cmd', '/c', 'start', '""'];
  return ['xdg-open'];
}

/** The command line for a file: {file} and {line} in LOCI_OPEN_COMMAND are filled in, else the file is appended. */
export function editorCommand(file: string, line: number | undefined, template = process.env.LOCI_OPEN_COMMAND): string[] {
  const words = template?.trim() ? template.trim().split(/\s+/) : systemOpener();
  const filled = words.map((w) => w.replaceAll('{file}', file).replaceAll('{line}', String(line ?? 1)));
  return words.some((w) => w.includes('{file}')) ? filled : [...filled, file];
}

/** Starts the editor and returns once it has started; the editor lives on by itself. */
export function openInEditor(file: string, line?: number): Promise<void> {
  const [command, ...args] = editorCommand(file, line);
  if (!command) throw new UserError('LOCI_OPEN_COMMAND is empty.');
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.once('error', (err) =>
      reject(new UserError(`Could not start '${command}' to open the note (${err.message}). Set LOCI_OPEN_COMMAND to your editor, e.g. "code -g {file}:{line}".`)),
    );
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
