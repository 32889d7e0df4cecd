// Resumable model download: bytes go to `<file>.partial`, an interrupted download continues with an
// HTTP Range request, and the finished file is checked against its sha256 before it is renamed into place.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { entryFiles, type CatalogueEntry, type CatalogueFile } from './catalogue.js';
import { writeSentenceTransformersConfig } from '../../embed/sentence-transformers-folder.js';

export interface PullProgress {
  file: string;
  received: number;
  total: number | null;
  /** True when this file continued from an earlier partial download. */
  resumed: boolean;
}

export interface PullOptions {
  onProgress?: (p: PullProgress) => void;
  signal?: AbortSignal;
}

export interface PulledFile {
  path: string;
  sha256: string;
  /** True when the file matched a checksum from the catalogue. */
  verified: boolean;
  resumed: boolean;
  downloadedBytes: number;
}

export interface PullResult {
  id: string;
  /** The GGUF file, or the folder of a transformers.js model. */
  path: string;
  files: PulledFile[];
}

export class ChecksumMismatchError extends Error {
  constructor(readonly file: string, readonly expected: string, readonly actual: string) {
    super(`Checksum mismatch for ${file}: expected ${expected}, got ${actual}. The download was discarded.`);
    this.name = 'ChecksumMismatchError';
  }
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** Downloads every file of a catalogue entry into `destDir` (GGUF: destDir/<file>; others: destDir/<id>/...). */
export async function pullModel(entry: CatalogueEntry, destDir: string, opts: PullOptions = {}): Promise<PullResult> {
  const base = entry.kind === 'gguf' ? destDir : join(destDir, entry.id);
  const files: PulledFile[] = [];
  const fresh = !existsSync(base);
  try {
    for (const f of entryFiles(entry)) files.push(await pullFile(f, join(base, f.path), opts));
  } catch (err) {
    // A model folder this pull made and nothing arrived in is removed (a partial download stays, to resume).
    if (fresh && entry.kind !== 'gguf') removeIfEmpty(base);
    throw err;
  }
  if (entry.kind !== 'gguf') {
    // After the downloaded files, so a file the download brought (the authors' own) is kept over the declaration.
    if (entry.embedding) writeSentenceTransformersConfig(base, entry.embedding);
    return { id: entry.id, path: base, files };
  }
  const gguf = files[0];
  if (!gguf) throw new Error(`Catalogue entry ${entry.id} names no GGUF file`);
  return { id: entry.id, path: gguf.path, files };
}

/** A download that never reached its server, said with the host and the cause ("fetch failed" alone says neither). */
function unreachable(f: CatalogueFile, err: unknown): Error {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const why = cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
  return new Error(`Could not reach ${new URL(f.url).host} to download ${f.path} (${why}). Check the internet connection (or proxy) and try again.`, { cause: err });
}

/** Removes a folder that holds no file (empty subfolders only). */
function removeIfEmpty(dir: string): void {
  const hasFile = (d: string): boolean => readdirSync(d, { withFileTypes: true }).some((e) => (e.isDirectory() ? hasFile(join(d, e.name)) : true));
  if (existsSync(dir) && !hasFile(dir)) rmSync(dir, { recursive: true, force: true });
}

async function pullFile(f: CatalogueFile, dest: string, opts: PullOptions): Promise<PulledFile> {
  mkdirSync(dirname(dest), { recursive: true });
  if (existsSync(dest)) {
    const sha = await sha256File(dest);
    if (!f.sha256 || sha === f.sha256) return { path: dest, sha256: sha, verified: sha === f.sha256, resumed: false, downloadedBytes: 0 };
    unlinkSync(dest); // a stale or damaged copy: fetch it again
  }
  const partial = `${dest}.partial`;
  let start = existsSync(partial) ? statSync(partial).size : 0;
  const res = await fetch(f.url, { headers: start > 0 ? { range: `bytes=${start}-` } : {}, signal: opts.signal, redirect: 'follow' }).catch((err: unknown) => {
    throw opts.signal?.aborted ? err : unreachable(f, err);
  });
  if (res.status === 416 && start > 0) {
    // The partial file already holds every byte: fall through to the checksum.
  } else if (!res.ok || !res.body) {
    throw new Error(`Download of ${f.url} failed: ${res.status} ${res.statusText}`);
  } else {
    if (res.status !== 206) start = 0; // the server ignored the Range header: start over
    const length = Number(res.headers.get('content-length'));
    const total = Number.isFinite(length) && length > 0 ? start + length : f.sizeBytes ?? null;
    let received = start;
    const resumed = start > 0;
    const counter = new TransformCounter((n) => {
      received += n;
      opts.onProgress?.({ file: f.path, received, total, resumed });
    });
    await pipeline(
      Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>),
      counter,
      createWriteStream(partial, { flags: start > 0 ? 'a' : 'w' }),
      { signal: opts.signal },
    );
  }
  const sha = await sha256File(partial);
  if (f.sha256 && sha !== f.sha256) {
    unlinkSync(partial);
    throw new ChecksumMismatchError(f.path, f.sha256, sha);
  }
  const downloadedBytes = statSync(partial).size - start;
  renameSync(partial, dest);
  return { path: dest, sha256: sha, verified: f.sha256 === sha, resumed: start > 0, downloadedBytes };
}


class TransformCounter extends Transform {
  constructor(private readonly onBytes: (n: number) => void) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.onBytes(chunk.length);
    cb(null, chunk);
  }
}
