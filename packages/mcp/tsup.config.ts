import { defineConfig } from 'tsup';

export default defineConfig({
  // The `skein-mcp` command is its own entry (the package's `bin`); its shebang line is kept.
  entry: ['src/index.ts', 'src/cli.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
