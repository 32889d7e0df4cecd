// When the chat model cannot load or answer, the question is still answered — extractively, from the
// same passages — and the notice says which model failed and why, instead of the ask failing.

export function modelFailedNotice(spec: string | null, err: unknown): string {
  return `The chat model '${spec ?? 'unknown'}' could not ${isLoadError(err) ? 'be loaded' : 'answer'} (${err instanceof Error ? err.message : String(err)}), so this answer is extractive: the passages that best match, each cited. Check the model in Settings.`;
}

function isLoadError(err: unknown): boolean {
  return err instanceof Error && /GGUF|not installed|Unknown model|model name/.test(err.message);
}

/** Runs a step that needs the model; a failure that is not the caller's cancel becomes a notice and null. */
export async function orNotice<T>(step: () => Promise<T>, spec: string | null, notices: string[], signal?: AbortSignal): Promise<T | null> {
  try {
    return await step();
  } catch (err) {
    if (signal?.aborted) throw err;
    notices.push(modelFailedNotice(spec, err));
    return null;
  }
}
