#!/usr/bin/env node
// The `loci` command. Runs the TypeScript sources through tsx, so there is no build step for the CLI.
import { register } from 'tsx/esm/api';

register();
await import('../main/cli/index.ts');
