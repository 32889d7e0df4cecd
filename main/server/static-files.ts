// Serves the built renderer (vite output) from one directory, refusing anything outside it.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

export interface StaticFile {
  body: Buffer;
  type: string;
}

/** Resolves a URL path inside `dir`; `/` and unknown extension-less paths fall back to index.html. */
export async function readStatic(staticDir: string, urlPath: string): Promise<StaticFile | null> {
  const dir = path.resolve(staticDir);
  let rel: string;
  try {
    rel = decodeURIComponent(urlPath.split('?')[0] ?? '/');
  } catch {
    return null;
  }
  if (rel === '/' || !path.extname(rel)) rel = '/index.html';
  const file = path.resolve(dir, '.' + rel);
  if (file !== dir && !file.startsWith(dir + path.sep)) return null;
  try {
    if (!(await stat(file)).isFile()) return null;
    return { body: await readFile(file), type: TYPES[path.extname(file)] ?? 'application/octet-stream' };
  } catch {
    return null;
  }
}
