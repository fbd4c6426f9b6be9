import { rm } from 'node:fs/promises';
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'testing/index': 'src/testing/index.ts',
    'conformance/index': 'src/conformance/index.ts',
    'store-kit/index': 'src/store-kit/index.ts',
    // `@skein/core/nodes`, the node-authoring entry.
    'authoring/index': 'src/authoring/index.ts',
  },
  external: ['vitest'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  // `./conformance` ships ESM only: it imports vitest, which refuses `require()`, so a CJS build
  // could never load, and it would carry its own copy of the engine (CJS output is not split).
  // One config builds every entry (so the ESM entries share chunks); the CJS file is dropped here.
  async onSuccess() {
    const dir = new URL('./dist/conformance/', import.meta.url);
    await rm(new URL('index.cjs', dir), { force: true });
    await rm(new URL('index.cjs.map', dir), { force: true });
  },
});
