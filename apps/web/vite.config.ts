import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The API server owns these prefixes; in development the dev server forwards them to it.
const API_PREFIXES = ['/v1', '/seal', '/pki', '/ecmp', '/epmp', '/healthz', '/openapi.json'];
const API_TARGET = 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: Object.fromEntries(API_PREFIXES.map((prefix) => [prefix, { target: API_TARGET, changeOrigin: false }])),
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
