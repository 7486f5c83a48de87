/**
 * Compiles the server, the `openseal` command and the pool's worker into apps/server/dist: ES modules for
 * Node 20, the @openseal/* workspace packages bundled in (they export TypeScript sources), every other
 * package left to node_modules (pkcs11js is native; PGlite finds its WASM beside its own module).
 *
 * The outputs sit side by side in dist, one level below apps/server like src, so what a module finds
 * relative to itself (`import.meta.url`: the web app's dist, the root package.json, the worker beside the
 * pool) resolves from dist as from src. Code shared by the entries goes into chunks in the same folder, and
 * each command's code into its own: `openseal verify` loads neither the server nor the database.
 *
 *   node apps/server/scripts/build.mjs           build when a source is newer than the last build
 *   node apps/server/scripts/build.mjs --force   build anyway
 *   node apps/server/scripts/build.mjs --check   exit 0 when the build is current, 1 when it is stale
 *
 * Used by `npm run build:server`, `npm start` (scripts/start.mjs) and the `openseal` bin.
 */
import { existsSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SERVER = fileURLToPath(new URL('..', import.meta.url));
const ROOT = join(SERVER, '..', '..');
export const DIST = join(SERVER, 'dist');
/** Written last by a build: its time is the build's. */
const STAMP = join(DIST, '.build-stamp');

const ENTRIES = {
  server: join(SERVER, 'src/server.ts'),
  cli: join(SERVER, 'src/cli/index.ts'),
  // work-pool.ts starts workers from './worker-entry.mjs' beside itself: the compiled one here.
  'worker-entry': join(SERVER, 'src/workers/worker-compiled.ts'),
};

/** What the build reads: the server's and the packages' sources (tests aside), their manifests, this file. */
function sourceRoots() {
  const packages = join(ROOT, 'packages');
  const roots = [join(SERVER, 'src'), join(SERVER, 'package.json'), fileURLToPath(import.meta.url)];
  for (const name of readdirSync(packages)) {
    roots.push(join(packages, name, 'src'), join(packages, name, 'package.json'));
  }
  return roots;
}

/** Newest modification time (ms) of the files under `path`, test files left out. */
export function newestMtime(path) {
  let st;
  try {
    st = statSync(path);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.isFile() && /\.test\.tsx?$/.test(entry.name)) continue;
    newest = Math.max(newest, newestMtime(join(path, entry.name)));
  }
  return newest;
}

/** True when dist holds a complete build newer than every source it was made from. */
export function serverBuildIsCurrent() {
  if (!existsSync(STAMP)) return false;
  const built = statSync(STAMP).mtimeMs;
  return sourceRoots().every((root) => newestMtime(root) <= built);
}

/** Builds dist afresh; answers the time it took in ms. */
export async function buildServer() {
  const started = Date.now();
  // esbuild comes with the dev tools; a production install without them runs whatever dist it ships.
  const { build } = await import('esbuild');
  // Built aside and swapped in, so a command starting meanwhile loads one whole build or the other.
  const fresh = `${DIST}-${process.pid}-${started}`;
  await build({
    entryPoints: ENTRIES,
    outdir: fresh,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunk-[hash]',
    sourcemap: 'linked',
    // Sources and maps stay in the repository: keep the paths in the maps relative.
    sourcesContent: false,
    logLevel: 'warning',
    plugins: [workspacePackagesOnly],
  });
  writeFileSync(join(fresh, '.build-stamp'), `${new Date().toISOString()}\n`);
  const old = `${fresh}-old`;
  try {
    if (existsSync(DIST)) renameSync(DIST, old);
    renameSync(fresh, DIST);
  } catch (err) {
    // Another build swapped its own in at the same moment: the same sources, so keep that one.
    if (!existsSync(STAMP)) throw err;
  } finally {
    rmSync(fresh, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
  return Date.now() - started;
}

/** Bundles @openseal/* (TypeScript sources) and Node built-ins stay imports, like every other package. */
const workspacePackagesOnly = {
  name: 'workspace-packages-only',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@openseal/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = new Set(process.argv.slice(2));
  if (args.has('--check')) {
    process.exitCode = serverBuildIsCurrent() ? 0 : 1;
  } else if (args.has('--force') || !serverBuildIsCurrent()) {
    const ms = await buildServer();
    process.stdout.write(`built ${dirname(STAMP)} in ${ms} ms\n`);
  } else {
    process.stdout.write('the server build is current\n');
  }
}
