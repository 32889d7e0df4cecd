// A chat model is checked before the setting is stored, as an embedder is loaded first: a local one
// must be an installed or readable GGUF, a server one must answer at its address. Loading the GGUF
// itself waits for the first question (seconds and memory the settings form should not spend).
import { UserError } from '../errors.js';
import { resolveModelFile } from './models/installed.js';

const PROBE_MS = 5000;

export async function checkChatModel(spec: string, modelsDir?: string): Promise<void> {
  // Named as "Setting 'model'" so the settings form puts the message on that field.
  const refuse = (why: string) => new UserError(`Setting 'model': the chat model '${spec}' cannot be used, so the setting was not changed: ${why}`);
  if (/^https?:\/\//.test(spec)) {
    const [baseUrl, model] = spec.split('#');
    if (!baseUrl || !model) throw refuse('a server needs a model name after #, e.g. http://127.0.0.1:8080#qwen2.5');
    const base = baseUrl.replace(/\/+$/, '');
    const models = `${/\/v1$/.test(base) ? base : `${base}/v1`}/models`;
    try {
      // Any HTTP answer shows a server is there; what it serves is for the first question to find out.
      await fetch(models, { signal: AbortSignal.timeout(PROBE_MS) });
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err instanceof Error ? err.message : String(err));
      throw refuse(`no server answers at ${baseUrl} (${cause}).`);
    }
    return;
  }
  try {
    resolveModelFile(spec, modelsDir);
  } catch (err) {
    throw refuse(err instanceof Error ? err.message : String(err));
  }
}
