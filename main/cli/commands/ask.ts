import { Option, type Command } from 'commander';
import { dbOption, embedderOption, jsonOption, print, withEngine } from '../options.js';
import type { Answer } from '../../engine/api.js';
import type { RetrievalMethod } from '../../engine/types.js';

export function registerAsk(program: Command): void {
  program
    .command('ask')
    .description('answer a question from the index, citing note paths and lines')
    .argument('<question>')
    .addOption(dbOption())
    .addOption(jsonOption())
    .addOption(embedderOption())
    .addOption(new Option('--method <method>', 'retrieval method').choices(['bm25', 'dense', 'hybrid', 'hig', 'pgr', 'loci']))
    .addOption(new Option('--k <n>', 'how many contexts to retrieve').default(8).argParser((v) => Number.parseInt(v, 10)))
    .addOption(new Option('--explain', 'show how the retrieval reached each context'))
    .action(async (question: string, opts: { db: string; json?: boolean; embedder?: string; method?: RetrievalMethod; k: number; explain?: boolean }) => {
      await withEngine(opts, async (engine) => {
        const answer = await engine.ask(question, { method: opts.method, k: opts.k, explain: opts.explain });
        print(!!opts.json, jsonAnswer(answer), () => formatAnswer(answer, !!opts.explain));
      });
    });
}

function jsonAnswer(a: Answer) {
  return {
    ...a,
    contexts: a.contexts.map((c) => ({ text: c.text, docPath: c.docPath, docTitle: c.docTitle, lineFrom: c.lineFrom, lineTo: c.lineTo, factPath: c.factPath, score: c.score, kind: c.kind })),
  };
}

function formatAnswer(a: Answer, explain: boolean): string {
  const out = [a.text, ''];
  for (const c of a.citations) out.push(`[${c.n}] ${c.docPath}:${c.lineFrom}-${c.lineTo}${c.factPath ? `  ${c.factPath}` : ''}`);
  out.push('', `(${a.mode}, method ${a.method}${a.model ? `, model ${a.model}` : ''}, ${a.ms.toFixed(0)} ms)`);
  if (explain) out.push('', 'Explanation:', JSON.stringify(a.explanation ?? null, null, 2));
  return out.join('\n');
}
