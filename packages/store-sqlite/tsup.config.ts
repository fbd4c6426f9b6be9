import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  // The CommonJS build needs import.meta.url too: better-sqlite3 is looked up from this package.
  shims: true,
});
