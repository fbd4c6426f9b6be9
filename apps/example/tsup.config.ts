import { defineConfig } from 'tsup';

export default defineConfig({
  // The MCP server is its own entry: the app starts it as a child process (dist/mcp-server.js).
  // mcp-travel is the workflow module `skein-mcp` serves (`pnpm mcp`).
  entry: ['src/cli.ts', 'src/mcp-server.ts', 'src/mcp-travel.ts'],
  format: ['esm'],
  sourcemap: true,
  clean: true,
  target: 'node20',
  banner: { js: '#!/usr/bin/env node' },
});
