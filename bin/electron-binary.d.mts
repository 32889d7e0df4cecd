export type ElectronPlan = { action: 'use'; bin: string } | { action: 'install' } | { action: 'browser'; reason: string };
export function installedElectron(): string | null;
export function electronPlan(o: { browser: boolean; installed: string | null; env: Record<string, string | undefined> }): ElectronPlan;
export function installElectron(log?: (line: string) => void): Promise<{ bin?: string; reason?: string }>;
