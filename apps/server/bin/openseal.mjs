#!/usr/bin/env node
// The `openseal` command. Runs the compiled server (dist/cli.mjs), compiling it first when a source is
// newer than the build (esbuild, well under a second). Where it cannot be compiled (no esbuild
// installed), it runs the TypeScript sources through tsx instead.
import { setFlagsFromString } from 'node:v8';
import { buildServer, serverBuildIsCurrent } from '../scripts/build.mjs';

// A one-shot command compiles the embedded database (PGlite, WebAssembly) with V8's baseline compiler
// only: optimising it would cost more processor time than the few queries of one command save, and
// 90 MB. A server (`start`) keeps the optimising tier.
if (process.argv[2] !== 'start') setFlagsFromString('--liftoff-only');

let cli = '../dist/cli.mjs';
if (!serverBuildIsCurrent()) {
  try {
    await buildServer();
  } catch (err) {
    process.stderr.write(`openseal: cannot compile the server (${err.message}); running the sources\n`);
    const { register } = await import('tsx/esm/api');
    register();
    cli = '../src/cli/index.ts';
  }
}
// Stack traces name the TypeScript sources.
process.setSourceMapsEnabled(true);
const { main } = await import(cli);
process.exitCode = await main(process.argv.slice(2));
