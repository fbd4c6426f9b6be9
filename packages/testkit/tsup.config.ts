import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'browser/index': 'src/browser/index.ts' },
  // The browser entry loads the optional peer `playwright-core` only when it launches Chromium.
  external: ['playwright-core'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
