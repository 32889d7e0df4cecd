// The indexing worker's entry in development and tests, where the engine runs as TypeScript: register
// tsx in this thread, then load the task. A packaged build bundles prepare-task.ts to index-worker.js
// beside the engine bundle instead (see pool.ts), and this file is not used.
import { register } from 'tsx/esm/api';

register();
const { default: task } = await import('./prepare-task.ts');
export default task;
