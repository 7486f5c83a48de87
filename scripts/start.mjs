#!/usr/bin/env node
/**
 * `npm start`: builds what is missing or older than its sources, then runs the compiled server.
 *
 * The web app (vite, tens of seconds) is built when apps/web/dist has no build stamp, or when a file of
 * the web app (src, public, index.html, vite.config.ts, package.json) or of a workspace package it uses is
 * newer than the stamp. The server (esbuild, under a second) likewise (apps/server/scripts/build.mjs).
 * So a fresh clone builds both on its first start, and later starts go straight to serving.
 *
 *   node scripts/start.mjs           build what is stale, then serve
 *   node scripts/start.mjs --build   build what is stale, and exit
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, newestMtime, serverBuildIsCurrent } from '../apps/server/scripts/build.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WEB = join(ROOT, 'apps/web');
const WEB_STAMP = join(WEB, 'dist', '.build-stamp');

/** The web app's own files and the src of every workspace package it depends on. */
function webSources() {
  const manifest = JSON.parse(readFileSync(join(WEB, 'package.json'), 'utf8'));
  const packages = Object.keys(manifest.dependencies ?? {})
    .filter((name) => name.startsWith('@openseal/'))
    .map((name) => join(ROOT, 'packages', name.slice('@openseal/'.length)));
  return [
    ...['src', 'public', 'index.html', 'vite.config.ts', 'package.json', 'tsconfig.json'].map((f) =>
      join(WEB, f),
    ),
    ...packages.flatMap((p) => [join(p, 'src'), join(p, 'package.json')]),
  ];
}

function webBuildIsCurrent() {
  if (!existsSync(WEB_STAMP)) return false;
  const built = statSync(WEB_STAMP).mtimeMs;
  return webSources().every((source) => newestMtime(source) <= built);
}

function buildWeb() {
  const started = Date.now();
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['run', 'build', '-w', '@openseal/web'], { cwd: ROOT, stdio: 'inherit' });
  // vite empties dist as it starts and writes the stamp when it is done (vite.config.ts).
  if (r.status !== 0) throw new Error(`the web build failed (exit ${r.status ?? r.signal})`);
  process.stdout.write(`built apps/web/dist in ${Date.now() - started} ms\n`);
}

if (!webBuildIsCurrent()) buildWeb();
if (!serverBuildIsCurrent()) {
  const ms = await buildServer();
  process.stdout.write(`built apps/server/dist in ${ms} ms\n`);
}
if (!process.argv.includes('--build')) {
  // Stack traces name the TypeScript sources.
  process.setSourceMapsEnabled(true);
  await import('../apps/server/dist/server.mjs');
}
