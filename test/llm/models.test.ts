import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_FILE, entryFiles, loadCatalogue, type CatalogueEntry } from '../../main/engine/llm/models/catalogue.js';
import { importModel } from '../../main/engine/llm/models/import.js';
import { resolveModelFile } from '../../main/engine/llm/models/installed.js';
import { ChecksumMismatchError, pullModel, sha256File, type PullProgress } from '../../main/engine/llm/models/pull.js';
import { tinyModelPath } from './helpers/tiny-model.js';
import { readSentenceTransformersConfig } from '../../main/engine/embed/sentence-transformers-folder.js';

/** Serves one real file with Range support; `cutAfter` makes the next full response drop after that many bytes. */
function fileServer(file: string) {
  const data = readFileSync(file);
  const state = { cutAfter: 0, rangeRequests: 0, requests: 0 };
  const server: Server = createServer((req, res) => {
    state.requests++;
    const range = /bytes=(\d+)-/.exec(req.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    if (range) state.rangeRequests++;
    if (start >= data.length) {
      res.writeHead(416, { 'content-range': `bytes */${data.length}` });
      res.end();
      return;
    }
    const body = data.subarray(start);
    res.writeHead(range ? 206 : 200, {
      'content-length': body.length,
      'accept-ranges': 'bytes',
      ...(range ? { 'content-range': `bytes ${start}-${data.length - 1}/${data.length}` } : {}),
    });
    if (state.cutAfter > 0) {
      const cut = state.cutAfter;
      state.cutAfter = 0;
      res.write(body.subarray(0, cut), () => setTimeout(() => res.destroy(), 50));
      return;
    }
    res.end(body);
  });
  return { server, state, size: data.length };
}

describe('model catalogue', () => {
  it('loads, validates and lists GGUF chat and transformers.js embedding models', () => {
    const models = loadCatalogue();
    expect(models.some((m) => m.kind === 'gguf' && m.role === 'chat')).toBe(true);
    expect(models.some((m) => m.kind === 'transformers.js' && m.role === 'embedding')).toBe(true);
    for (const m of models) {
      expect(m.licence.length).toBeGreaterThan(0);
      expect(entryFiles(m).length).toBeGreaterThan(0);
      // A checksum we could not confirm against the publisher is never presented as verified.
      if (m.sha256 === null) expect(m.verified).toBe(false);
      // Verified means confirmed on the file's hub page at a pinned revision, and the URL downloads that revision.
      if (m.verified && m.kind === 'gguf') {
        expect(m.sha256).toMatch(/^[0-9a-f]{64}$/);
        expect(m.url).toMatch(/\/resolve\/[0-9a-f]{40}\//);
        expect(m.checksumSource).toMatch(/revision [0-9a-f]{40}/);
      }
    }
  });

  it('says for every embedding model how its authors embed with it', () => {
    const byId = new Map(loadCatalogue().map((m) => [m.id, m]));
    // As their model cards say: MiniLM was trained on 256 word pieces; BGE pools by [CLS] and asks for an
    // instruction before a retrieval query; E5 asks for "query: " and "passage: ".
    expect(byId.get('all-minilm-l6-v2')!.embedding).toEqual({ pooling: 'mean', maxSeqLength: 256 });
    expect(byId.get('bge-small-zh-v1.5')!.embedding).toMatchObject({ pooling: 'cls', prompts: { query: expect.stringMatching(/检索/) } });
    expect(byId.get('multilingual-e5-small')!.embedding).toMatchObject({ pooling: 'mean', prompts: { query: 'query: ', passage: 'passage: ' } });
  });

  it('recommends one first chat model for a laptop: verified, small, with its memory, languages and licence', () => {
    const picks = loadCatalogue().filter((m) => m.role === 'chat' && m.recommended);
    expect(picks).toHaveLength(1);
    const pick = picks[0]!;
    expect(pick.verified).toBe(true);
    expect(pick.ramLabel).toMatch(/GB|MB/);
    expect(pick.sizeLabel ?? String(pick.sizeBytes)).toBeTruthy();
    expect(pick.languages).toEqual(expect.arrayContaining(['en', 'zh']));
    expect(pick.licence.length).toBeGreaterThan(0);
  });

  it('refuses a catalogue that claims a verified model without a checksum, or two recommended chat models', () => {
    const dir = mkdtempSync(join(tmpdir(), 'loci-cat-'));
    try {
      const base = JSON.parse(readFileSync(CATALOGUE_FILE, 'utf8')) as { version: 1; models: Record<string, unknown>[] };
      const write = (models: Record<string, unknown>[]) => {
        const f = join(dir, `c${Math.random()}.json`);
        writeFileSync(f, JSON.stringify({ ...base, models }));
        return f;
      };
      const chat = base.models.find((m) => m.recommended && m.role === 'chat')!;
      expect(() => loadCatalogue(write([{ ...chat, sha256: null }]))).toThrow(/verified without a checksum/);
      expect(() => loadCatalogue(write([chat, { ...chat, id: 'second' }]))).toThrow(/more than one recommended chat/);
      const embedding = base.models.find((m) => m.role === 'embedding')!;
      expect(() => loadCatalogue(write([{ ...embedding, embedding: undefined }]))).toThrow(/needs its embedding/);
      expect(() => loadCatalogue(write([{ ...embedding, embedding: { pooling: 'max', maxSeqLength: 256 } }]))).toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('model downloader against a local HTTP server serving the real tiny GGUF', () => {
  let srv: ReturnType<typeof fileServer>;
  let url: string;
  let sha: string;
  let dir: string;
  beforeAll(async () => {
    const model = await tinyModelPath();
    sha = await sha256File(model);
    srv = fileServer(model);
    await new Promise<void>((r) => srv.server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(srv.server.address() as AddressInfo).port}/stories260K.gguf`;
    dir = mkdtempSync(join(tmpdir(), 'loci-pull-'));
  });
  afterAll(async () => {
    srv.server.closeAllConnections();
    await new Promise<void>((r) => srv.server.close(() => r()));
    rmSync(dir, { recursive: true, force: true });
  });

  const entry = (over: Partial<CatalogueEntry> = {}): CatalogueEntry => ({
    id: 'tiny',
    kind: 'gguf',
    role: 'test',
    name: 'tiny',
    description: '',
    languages: ['en'],
    licence: 'MIT',
    url,
    file: 'tiny.gguf',
    sizeBytes: null,
    sha256: sha,
    checksumSource: null,
    verified: false,
    ...over,
  });

  it('downloads with progress and verifies the checksum', async () => {
    const sub = join(dir, 'full');
    const progress: PullProgress[] = [];
    const r = await pullModel(entry(), sub, { onProgress: (p) => progress.push(p) });
    expect(r.path).toBe(join(sub, 'tiny.gguf'));
    expect(statSync(r.path).size).toBe(srv.size);
    expect(r.files[0]!.verified).toBe(true);
    expect(r.files[0]!.sha256).toBe(sha);
    expect(progress.at(-1)!.received).toBe(srv.size);
    expect(progress.at(-1)!.total).toBe(srv.size);
    expect(existsSync(`${r.path}.partial`)).toBe(false);
  });

  it('resumes an interrupted download with a Range request', async () => {
    const sub = join(dir, 'resume');
    srv.state.cutAfter = 300_000;
    await expect(pullModel(entry(), sub)).rejects.toThrow();
    const partial = join(sub, 'tiny.gguf.partial');
    expect(existsSync(partial)).toBe(true);
    const have = statSync(partial).size;
    expect(have).toBeGreaterThan(0);
    expect(have).toBeLessThan(srv.size);
    const ranges = srv.state.rangeRequests;
    const r = await pullModel(entry(), sub);
    expect(srv.state.rangeRequests).toBe(ranges + 1);
    expect(r.files[0]!.resumed).toBe(true);
    expect(r.files[0]!.downloadedBytes).toBe(srv.size - have);
    expect(r.files[0]!.verified).toBe(true);
    expect(await sha256File(r.path)).toBe(sha);
  });

  it('rejects a file whose checksum does not match, and keeps nothing', async () => {
    const sub = join(dir, 'bad');
    const wrong = sha.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    await expect(pullModel(entry({ sha256: wrong }), sub)).rejects.toBeInstanceOf(ChecksumMismatchError);
    expect(existsSync(join(sub, 'tiny.gguf'))).toBe(false);
    expect(existsSync(join(sub, 'tiny.gguf.partial'))).toBe(false);
  });

  it('skips the download when a verified copy is already there', async () => {
    const sub = join(dir, 'full');
    const before = srv.state.requests;
    const r = await pullModel(entry(), sub);
    expect(srv.state.requests).toBe(before);
    expect(r.files[0]!.downloadedBytes).toBe(0);
  });

  it('lays out an embedding model as a sentence-transformers folder, keeping the files the download brought', async () => {
    const sub = join(dir, 'embedding');
    const e5 = entry({
      id: 'tiny-e5',
      kind: 'transformers.js',
      role: 'embedding',
      files: [{ path: 'onnx/model_quantized.onnx', url, sha256: sha }],
      embedding: { pooling: 'mean', maxSeqLength: 512, prompts: { query: 'query: ', passage: 'passage: ' } },
    });
    const r = await pullModel(e5, sub);
    expect(r.path).toBe(join(sub, 'tiny-e5'));
    expect(statSync(join(r.path, 'onnx', 'model_quantized.onnx')).size).toBe(srv.size);
    expect(readSentenceTransformersConfig(r.path)).toEqual({ maxSeqLength: 512, pooling: 'mean', prompts: { query: 'query: ', passage: 'passage: ' } });

    // BGE: [CLS] and a query instruction only; the authors' own sentence_bert_config.json stays as it came.
    const bgeDir = join(sub, 'tiny-bge');
    mkdirSync(bgeDir, { recursive: true });
    writeFileSync(join(bgeDir, 'sentence_bert_config.json'), JSON.stringify({ max_seq_length: 384 }));
    const bge = await pullModel({ ...e5, id: 'tiny-bge', embedding: { pooling: 'cls', maxSeqLength: 512, prompts: { query: '为这个句子生成表示以用于检索相关文章：' } } }, sub);
    expect(readSentenceTransformersConfig(bge.path)).toEqual({ maxSeqLength: 384, pooling: 'cls', prompts: { query: '为这个句子生成表示以用于检索相关文章：' } });
  });

  // `.invalid` never resolves (RFC 2606): the same failure offline and online.
  it('a download that cannot reach its host names the host and leaves no empty model folder', async () => {
    const sub = join(dir, 'offline');
    const off = entry({ id: 'tiny-offline', kind: 'transformers.js', role: 'embedding', files: [{ path: 'onnx/model.onnx', url: 'http://models.loci.invalid/model.onnx', sha256: sha }] });
    await expect(pullModel(off, sub)).rejects.toThrow(/^Could not reach models\.loci\.invalid to download onnx\/model\.onnx \((ENOTFOUND|EAI_AGAIN)\)\. Check the internet connection/);
    expect(existsSync(join(sub, 'tiny-offline'))).toBe(false);
  });

  it('imports a GGUF file into the models folder and resolves it by name; refuses non-GGUF files', async () => {
    const models = join(dir, 'models');
    const src = join(dir, 'my-model.gguf');
    copyFileSync(await tinyModelPath(), src);
    const imported = await importModel(src, models);
    expect(imported.id).toBe('my-model');
    expect(imported.sha256).toBe(sha);
    expect(resolveModelFile('my-model', models)).toBe(imported.path);
    const fake = join(dir, 'fake.gguf');
    writeFileSync(fake, 'not a model');
    await expect(importModel(fake, models)).rejects.toThrow(/not a GGUF/);
    expect(() => resolveModelFile('nothing-like-this', models)).toThrow(/Unknown model/);
    expect(() => resolveModelFile('qwen2.5-0.5b-instruct-q4_k_m', models)).toThrow(/not installed/);
  });
});
