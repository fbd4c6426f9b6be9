import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts'],
  format: ['esm', 'cjs'],
  dts: { entry: 'src/index.ts' },
  sourcemap: true,
  // The server finds its page beside itself through import.meta.url, in the CJS build too.
  shims: true,
  clean: true,
  target: 'node20',
});
