import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The API server owns these paths; in development the dev server forwards them to it. Matched as whole
// path segments: a plain '/seal' prefix would also swallow the page /sealService.
const API_PATHS = ['v1', 'seal', 'pki', 'ecmp', 'epmp', 'healthz', 'openapi.json', 'docs', 'manage/api'];
const API_TARGET = 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
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
