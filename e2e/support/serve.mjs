// Starts browser mode on an empty database (no folder): the e2e flow adds the folder through the UI.
// Every spec opens the one URL global setup hands out, each in a fresh browser context: the URL's
// one-time code is allowed that many uses here (a user's printed URL opens the page once).
import { register } from 'tsx/esm/api';

register();
const { runServe } = await import('../../main/cli/commands/serve.ts');
await runServe({ db: process.env.LOCI_DB, port: 0, openUrlUses: 50 });
