// Runs the LLM refinement pass in its own process, so a test can SIGKILL it mid-run.
import { createStaticEmbedder } from '../../../main/engine/embed/static-embedder.js';
import { refineIndexWithModel } from '../../../main/engine/extract/llm/refine.js';
import { openDb } from '../../../main/engine/store/db.js';

const [dbFile, model] = process.argv.slice(2);
if (!dbFile || !model) throw new Error('usage: refine-script <db file> <model>');
const db = openDb(dbFile);
const report = await refineIndexWithModel(db, await createStaticEmbedder(), model, { maxTries: 1, minSupport: 0, maxTokens: { piece: 1200 }, onProgress: (p) => console.log(`progress ${p.done}/${p.total}`) });
console.log(JSON.stringify(report));
db.close();
