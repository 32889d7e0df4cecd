// Starts browser mode on an empty database (no folder): the e2e flow adds the folder through the UI.
import { register } from 'tsx/esm/api';

register();
const { runServe } = await import('../../main/cli/commands/serve.ts');
await runServe({ db: process.env.LOCI_DB, port: 0 });
