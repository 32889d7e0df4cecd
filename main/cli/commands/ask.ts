import { InvalidArgumentError, Option, type Command } from 'commander';
import { calls } from '../../contract/contract.js';
import { retrievalMethod } from '../../contract/shapes/domain.js';
import { dbOption, embedderOption, jsonOption, modelOption, print, withEngine } from '../options.js';
import type { Answer } from '../../engine/api.js';
import type { RetrievalMethod } from '../../engine/types.js';
import { termField, termText } from '../terminal.js';

/** --k as the app's contract takes it: a typo ("--k 5o", "--k 0") is refused, not read as "nothing matches". */
function contextCount(value: string): number {
  const k = calls.ask.request.shape.k.safeParse(Number(value));
  if (!k.success) throw new InvalidArgumentError(k.error.issues[0]!.message);
  return k.data!;
}

export function registerAsk(program: Command): void {
  program
    .command('ask')
    .description('answer a question from the index, citing note paths and lines')
    .argument('<question>')
    .addOption(dbOption())
    .addOption(jsonOption())
    .addOption(embedderOption())
    .addOption(new Option('--method <method>', 'retrieval method (registry: main/engine/retrieve/registry.ts)').choices(retrievalMethod.options))
    .addOption(new Option('--k <n>', 'how many contexts to retrieve').default(8).argParser(contextCount))
    .addOption(new Option('--explain', 'show how the retrieval reached each context'))
    .addOption(new Option('--passages', 'also print the passages the answer was drawn from, with their notes\' lines'))
    .addOption(modelOption())
    .action(async (question: string, opts: { db: string; json?: boolean; embedder?: string; model?: string; method?: RetrievalMethod; k: number; explain?: boolean; passages?: boolean }) => {
      // It asks once and exits: what the last ask derived from the index is read back, not derived again.
      await withEngine({ ...opts, oneOff: true, existing: true }, async (engine) => {
        // A generated answer streams to the terminal as the model writes it; the sources follow.
        const streaming = !opts.json;
        const answer = await engine.answers.ask(question, {
          method: opts.method,
          k: opts.k,
          explain: opts.explain,
          onToken: streaming ? (t) => process.stdout.write(termText(t)) : undefined,
        });
        if (streaming && answer.mode === 'generated') process.stdout.write('\n\n');
        const { formatExplanation } = await import('../../engine/retrieve/explain.js');
        const explanation = opts.explain ? formatExplanation(answer.explanation) : null;
        print(!!opts.json, jsonAnswer(answer), () => formatAnswer(answer, explanation, streaming && answer.mode === 'generated', !!opts.passages));
      });
    });
}

function jsonAnswer(a: Answer) {
  return {
    ...a,
    contexts: a.contexts.map((c) => ({ text: c.text, docPath: c.docPath, docTitle: c.docTitle, lineFrom: c.lineFrom, lineTo: c.lineTo, factPath: c.factPath, score: c.score, kind: c.kind })),
  };
}

function formatAnswer(a: Answer, explanation: string | null, textAlreadyShown: boolean, passages: boolean): string {
  const out = textAlreadyShown ? [] : [a.text, ''];
  // What streamed carries the model's own marks: once grounding changed them, the checked text follows.
  const regrounded = a.support?.some((s) => s.citations.join() !== s.cited.join());
  if (textAlreadyShown && regrounded) out.push(`With its citations checked against the notes:\n${a.text}`, '');
  for (const s of a.support ?? []) if (!s.supported) out.push(`(not found in your notes: "${s.sentence.length > 120 ? `${s.sentence.slice(0, 119)}…` : s.sentence}")`);
  for (const c of a.citations) out.push(`[${c.n}] ${sourceRef(c)}`);
  if (a.droppedCitations) out.push(`(${a.droppedCitations} citation(s) to sources that were not given were removed)`);
  if (a.notice) out.push(`(${a.notice})`);
  if (passages) {
    // As the window lists them under an answer: each passage's note and lines, then its text as written, indented.
    out.push('', `${a.contexts.length} passage(s) retrieved:`);
    a.contexts.forEach((c, i) => {
      out.push('', `(${i + 1}) ${sourceRef(c)}`);
      for (const line of termText(c.text).split('\n')) out.push(`    ${line}`);
    });
  }
  out.push('', `(${a.mode}, method ${a.method}${a.model ? `, model ${a.model}` : ''}, ${a.ms.toFixed(0)} ms)`);
  if (explanation) out.push('', explanation);
  return out.join('\n');
}

/** A citation's or passage's note and lines, and its fact path when it has one. */
function sourceRef(c: { docPath: string; lineFrom: number; lineTo: number; factPath: string | null }): string {
  return `${termField(c.docPath)}:${c.lineFrom}-${c.lineTo}${c.factPath ? `  ${termField(c.factPath)}` : ''}`;
}
