// The native menu as a template (plain data), built by the shell and checked by tests.
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  openFolder(): void;
  showView(view: 'library' | 'ask' | 'mindmap' | 'graph' | 'settings'): void;
  openExternal(url: string): void;
}

export const HELP_URL = 'https://github.com/loci-notes/loci#readme';

export function menuTemplate(actions: MenuActions, platform: NodeJS.Platform = process.platform): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const views: [string, Parameters<MenuActions['showView']>[0]][] = [
    ['Library', 'library'],
    ['Ask', 'ask'],
    ['Mind map', 'mindmap'],
    ['Graph', 'graph'],
    ['Settings && models', 'settings'],
  ];
  return [
    ...(mac ? [{ role: 'appMenu' as const }] : []),
    {
      label: '&File',
      submenu: [
        { label: 'Add notes folder…', accelerator: 'CmdOrCtrl+O', click: () => actions.openFolder() },
        { type: 'separator' },
        mac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: '&View',
      submenu: [
        ...views.map(([label, view], i): MenuItemConstructorOptions => ({ label, accelerator: `CmdOrCtrl+${i + 1}`, click: () => actions.showView(view) })),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    { role: 'help', submenu: [{ label: 'Loci documentation', click: () => actions.openExternal(HELP_URL) }] },
  ];
}
