import { defineConfig } from 'tsup';

export default defineConfig({
  // One entry per peer: importing `@skein/interop` needs neither peer, `./mcp` needs only the MCP
  // SDK, `./openai-agents` only the Agents SDK.
  entry: ['src/index.ts', 'src/mcp.ts', 'src/openai-agents.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  // Shared chunks (the error classes) exist once in each format, so `instanceof` holds across
  // entry points.
  splitting: true,
  target: 'node20',
});
