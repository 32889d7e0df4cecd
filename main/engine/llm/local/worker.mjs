// The model process. It loads one GGUF once and serves generation requests from its parent over IPC,
// running up to `sequences` of them in parallel on one context. Plain ESM JavaScript so it starts
// without a TypeScript loader; if llama.cpp crashes or runs out of memory only this process dies.
import { getLlama, LlamaCompletion, LlamaChatSession, resolveChatWrapper } from 'node-llama-cpp';
import { loopStart, settledEnd } from '../loop-guard.mjs';

/** @type {import('node-llama-cpp').Llama} */ let llama;
/** @type {import('node-llama-cpp').LlamaModel} */ let model;
/** @type {import('node-llama-cpp').LlamaContext} */ let context;
let useChat = false;
/** node-llama-cpp's chat wrapper for this GGUF (from its template, else from its name and turn tokens). */
let chatWrapper;
const freeSequences = [];
const sequenceWaiters = [];
const running = new Map(); // request id -> AbortController
const grammars = new Map(); // schema JSON -> grammar

const send = (msg) => {
  if (process.connected) process.send(msg);
};

async function init(opts) {
  llama = await getLlama({ gpu: false, build: 'never', logLevel: 'error' });
  model = await llama.loadModel({ modelPath: opts.modelPath, gpuLayers: 0 });
  context = await model.createContext({
    sequences: opts.sequences,
    contextSize: opts.contextSize ?? Math.min(model.trainContextSize, 4096),
    threads: opts.threads,
    batchSize: opts.batchSize,
  });
  for (let i = 0; i < opts.sequences; i++) freeSequences.push(context.getSequence());
  chatWrapper = resolveChatWrapper(model);
  useChat = opts.mode === 'chat' || (opts.mode !== 'completion' && speaksChat(model, chatWrapper));
  send({
    type: 'ready',
    info: {
      contextSize: context.contextSize,
      trainContextSize: model.trainContextSize,
      sequences: opts.sequences,
      threads: opts.threads,
      mode: useChat ? 'chat' : 'completion',
      chatWrapper: useChat ? chatWrapper.wrapperName : null,
    },
  });
}

// Turn markers that only chat-trained vocabularies hold as single special tokens (Gemma, ChatML, Llama 3).
const TURN_TOKENS = ['<start_of_turn>', '<|im_start|>', '<|start_header_id|>'];

/**
 * A GGUF with a chat template speaks chat. Without one (Gemma 3 270M ships none), node-llama-cpp still
 * resolves its family's wrapper from the name and architecture; that wrapper is trusted only when the
 * vocabulary really has turn tokens, so a llama-architecture story model is not forced into [INST] chat.
 */
function speaksChat(model, wrapper) {
  const template = model.fileInfo.metadata?.tokenizer?.chat_template;
  if (typeof template === 'string' && template.length > 0) return true;
  if (!wrapper || wrapper.wrapperName === 'General') return false;
  return TURN_TOKENS.some((t) => model.tokenize(t, true).length === 1);
}

function acquireSequence() {
  const seq = freeSequences.pop();
  if (seq) return Promise.resolve(seq);
  return new Promise((resolve) => sequenceWaiters.push(resolve));
}

function releaseSequence(seq) {
  const next = sequenceWaiters.shift();
  if (next) next(seq);
  else freeSequences.push(seq);
}

async function grammarFor(schema) {
  if (!schema) return undefined;
  const key = JSON.stringify(schema);
  let g = grammars.get(key);
  if (!g) {
    g = await llama.createGrammarForJsonSchema(schema);
    grammars.set(key, g);
  }
  return g;
}

async function generate(id, req) {
  const controller = new AbortController();
  running.set(id, controller);
  let seq;
  try {
    seq = await acquireSequence();
    if (controller.signal.aborted) throw new Error('aborted');
    const grammar = await grammarFor(req.jsonSchema);
    let tokens = 0;
    // stopOnLoop: the text so far is watched, and a loop ends the generation early (not as an error).
    const looped = new AbortController();
    let written = '';
    let cut = -1;
    // Streamed with stopOnLoop: text goes out a sentence or a line at a time, once no repeat can start in it,
    // so a repeat the guard cuts is never sent (a line at a time held a one-paragraph answer until its end).
    let sent = 0;
    const sendUpTo = (end) => {
      if (req.stream && end > sent) send({ type: 'token', id, text: written.slice(sent, end) });
      sent = Math.max(sent, end);
    };
    const options = {
      maxTokens: req.maxTokens,
      temperature: req.temperature ?? 0,
      seed: req.seed,
      grammar,
      signal: req.stopOnLoop ? AbortSignal.any([controller.signal, looped.signal]) : controller.signal,
      stopOnAbortSignal: Boolean(req.stopOnLoop),
      onToken: (t) => {
        tokens += t.length;
      },
      onTextChunk:
        req.stream || req.stopOnLoop
          ? (text) => {
              if (!req.stopOnLoop) return send({ type: 'token', id, text });
              if (cut >= 0) return;
              written += text;
              cut = loopStart(written);
              if (cut >= 0) {
                sendUpTo(cut);
                looped.abort();
              } else sendUpTo(settledEnd(written));
            }
          : undefined,
      customStopTriggers: req.stop?.length ? req.stop : undefined,
    };
    let text;
    if (useChat) {
      const session = new LlamaChatSession({ contextSequence: seq, chatWrapper, systemPrompt: req.system, autoDisposeSequence: false });
      try {
        text = await session.prompt(req.prompt, { ...options, responsePrefix: req.responsePrefix });
      } finally {
        // The sequence keeps its tokens: the next chat on it reuses the shared system-prompt prefix.
        session.dispose({ disposeSequence: false });
      }
    } else {
      const completion = new LlamaCompletion({ contextSequence: seq });
      try {
        // The system text is a fixed prefix, so consecutive calls on a sequence reuse its evaluated state.
        const input = (req.system ? `${req.system}\n\n${req.prompt}` : req.prompt) + (req.responsePrefix ? `\n${req.responsePrefix}` : '');
        text = (req.responsePrefix ?? '') + (await completion.generateCompletion(input, options));
      } finally {
        completion.dispose({ disposeSequence: false });
      }
    }
    if (controller.signal.aborted) throw new Error('aborted');
    if (cut >= 0) text = (req.responsePrefix ?? '') + written.slice(0, cut);
    else sendUpTo(written.length);
    send({ type: 'done', id, text, tokens });
  } catch (err) {
    send({ type: 'error', id, message: err instanceof Error ? err.message : String(err), aborted: controller.signal.aborted });
  } finally {
    running.delete(id);
    if (seq) releaseSequence(seq);
  }
}

/** Generations in progress, so closing can wait for them to stop. */
const inflight = new Set();

process.on('message', (msg) => {
  if (msg.type === 'init') {
    init(msg.opts).catch((err) => {
      send({ type: 'fatal', message: err instanceof Error ? err.message : String(err) });
      process.exit(1);
    });
  } else if (msg.type === 'generate') {
    const done = generate(msg.id, msg.req);
    inflight.add(done);
    void done.finally(() => inflight.delete(done));
  } else if (msg.type === 'abort') {
    running.get(msg.id)?.abort();
  } else if (msg.type === 'close') {
    // Generations still running are aborted and allowed to settle first: disposing the context under a
    // running completion makes node-llama-cpp throw where nothing can catch it.
    for (const controller of running.values()) controller.abort();
    Promise.allSettled([...inflight])
      .then(() => context?.dispose())
      .then(() => model?.dispose())
      .then(() => llama?.dispose())
      .finally(() => process.exit(0));
  }
});

// The parent going away must not leave an orphaned model process holding memory.
process.on('disconnect', () => process.exit(0));
