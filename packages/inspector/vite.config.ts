import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The page: Preact (JSX through esbuild, no plugin needed) and uPlot, bundled into dist/page,
// which the server serves. Relative asset URLs so the page works under any path.
export default defineConfig({
  root: fileURLToPath(new URL('./page', import.meta.url)),
  base: './',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: fileURLToPath(new URL('./dist/page', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 200,
  },
  logLevel: 'warn',
});
