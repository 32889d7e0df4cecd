// Entry of the engine's utilityProcess: the engine is TypeScript run through tsx (as the CLI is), so
// its resource paths stay those of the source tree inside the packaged app.
import { register } from 'tsx/esm/api';

register();
await import('./engine-process.ts');
