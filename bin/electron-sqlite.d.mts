export function electronSqliteBinding(version: string, where?: { platform?: string; arch?: string; root?: string }): { dir: string; file: string };
export function ensureElectronSqlite(
  version: string,
  opts?: { log?: (line: string) => void; root?: string; mirror?: string },
): Promise<{ binding: string; reason?: undefined } | { binding?: undefined; reason: string }>;
