// Turns a `--model` argument into a provider: `http(s)://server[/v1]#model-name` for an OpenAI-compatible
// server, otherwise a local GGUF (path, installed name or catalogue id).
import { LocalLlamaProvider, type LocalLlamaOptions } from './local/local-provider.js';
import { resolveModelFile } from './models/installed.js';
import { OpenAiCompatibleProvider } from './openai/openai-provider.js';
import type { LlmProvider } from './provider.js';

export interface OpenLlmOptions extends Omit<LocalLlamaOptions, 'modelPath'> {
  apiKey?: string;
  modelsDir?: string;
}

export async function openLlm(spec: string, opts: OpenLlmOptions = {}): Promise<LlmProvider> {
  if (/^https?:\/\//.test(spec)) {
    const [baseUrl, model] = spec.split('#');
    if (!baseUrl || !model) throw new Error('An OpenAI-compatible server needs a model name: http://host:port#model-name');
    return new OpenAiCompatibleProvider({ baseUrl, model, apiKey: opts.apiKey ?? process.env.LOCI_OPENAI_API_KEY, defaultTimeoutMs: opts.defaultTimeoutMs });
  }
  return LocalLlamaProvider.open({ ...opts, modelPath: resolveModelFile(spec, opts.modelsDir) });
}
