// The official MCP conformance suite's client mode (0.1.13), run by its own CLI: each scenario
// starts a server on the loopback address and runs `conformance-client.ts` against it, which is
// what Skein does when it consumes an MCP server (tools through `fromMcpClient`, the server's
// requests answered through `answerMcpServerRequests`). `sse-retry` is left to a run by hand: it
// checks the client's reconnection delay against the wall clock. The auth scenarios test the
// app's OAuth provider on the SDK transport, not Skein's code. See the README.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const CLI = join(
  dirname(require.resolve('@modelcontextprotocol/conformance/package.json')),
  'dist/index.js',
);
const CLIENT = fileURLToPath(new URL('./conformance-client.ts', import.meta.url));
const PACKAGE = fileURLToPath(new URL('../../', import.meta.url));

describe('MCP conformance suite 0.1.13, client mode', () => {
  it.each(['initialize', 'tools_call', 'elicitation-sep1034-client-defaults'])(
    '%s passes',
    { timeout: 240_000 },
    async (scenario) => {
      const command = `"${process.execPath}" --import tsx "${CLIENT}"`;
      const result = await run(
        process.execPath,
        [CLI, 'client', '--command', command, '--scenario', scenario, '--timeout', '180000'],
        { cwd: PACKAGE, timeout: 220_000, maxBuffer: 16 * 1024 * 1024 },
      ).then(
        ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
        (error: { code?: number; stdout?: string; stderr?: string }) => ({
          code: error.code ?? -1,
          output: (error.stdout ?? '') + (error.stderr ?? ''),
        }),
      );
      expect(result.output).toContain('OVERALL: PASSED');
      expect(result.code, result.output).toBe(0);
    },
  );
});
