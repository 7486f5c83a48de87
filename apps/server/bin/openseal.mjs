#!/usr/bin/env node
// The `openseal` command. Runs the TypeScript sources through tsx, so no build step is needed.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/index.ts');
process.exitCode = await main(process.argv.slice(2));
