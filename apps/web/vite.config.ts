import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** Marks a whole build: `npm start` rebuilds the app only when a source is newer than this stamp. */
function buildStamp(): Plugin {
  let outDir = '';
  return {
    name: 'openseal-build-stamp',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      writeFileSync(resolve(outDir, '.build-stamp'), `${new Date().toISOString()}\n`);
    },
  };
}

// The API server owns these paths; in development the dev server forwards them to it. Matched as whole
// path segments: a plain '/seal' prefix would also swallow the page /sealService.
const API_PATHS = ['v1', 'seal', 'pki', 'ecmp', 'epmp', 'healthz', 'openapi.json', 'docs', 'manage/api'];
const API_TARGET = 'http://localhost:8080';

export default defineConfig({
  plugins: [react(), buildStamp()],
  server: {
    port: 5173,
    proxy: Object.fromEntries(
      API_PATHS.map((name) => [
        `^/${name.replace('.', '\\.')}(/|\\?|$)`,
        { target: API_TARGET, changeOrigin: false },
      ]),
    ),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      treeshake: {
        // The shared core package is pure (no module side effects), but does not say so in its manifest;
        // without this the zod contract schemas would ship although the web app imports only their types.
        moduleSideEffects: (id: string) => !/[\\/]packages[\\/]core[\\/]src[\\/]/.test(id),
      },
    },
  },
});
