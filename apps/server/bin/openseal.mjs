#!/usr/bin/env node
// The `openseal` command. Runs the compiled server (dist/cli.mjs), compiling it first when a source is
// newer than the build (esbuild, well under a second). Where it cannot be compiled (esbuild is a dev
// tool), it runs the TypeScript sources through tsx instead.
import { buildServer, serverBuildIsCurrent } from '../scripts/build.mjs';

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
