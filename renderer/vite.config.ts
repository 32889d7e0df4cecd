import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

// Relative base: the same build is served by browser mode (http://127.0.0.1) and loaded by Electron
// from its app protocol.
export default defineConfig({
  root: here,
  base: './',
  plugins: [react()],
  build: {
    outDir: path.resolve(here, '../out/renderer'),
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
  },
  css: { modules: { localsConvention: 'camelCaseOnly' } },
});
