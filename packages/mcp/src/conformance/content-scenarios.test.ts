// The official MCP conformance suite's content scenarios, run by its own CLI against
// @skein/mcp's Streamable HTTP server on 127.0.0.1, serving the fixture workflows.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { SkeinEngine } from '@skein/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenMcpHttp, type RunningMcpHttpServer } from '../http/listen.js';
import { registerConformanceWorkflows } from './fixture-workflows.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const CLI = join(
  dirname(require.resolve('@modelcontextprotocol/conformance/package.json')),
  'dist/index.js',
);

interface Check {
  readonly id: string;
  readonly status: string;
  readonly errorMessage?: string;
}

let server: RunningMcpHttpServer;
beforeAll(async () => {
  const engine = new SkeinEngine({});
  registerConformanceWorkflows(engine);
  server = await listenMcpHttp(engine, { name: 'skein-conformance', version: '1.0.0' });
});
afterAll(() => server.close());

// `--verbose` prints the checks as JSON; the CLI exits 1 when any check failed.
async function scenario(name: string): Promise<{ code: number; checks: Check[]; out: string }> {
  const args = [CLI, 'server', '--url', server.url, '--scenario', name, '--verbose'];
  const result = await run(process.execPath, args, { timeout: 60_000 }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code?: number; stdout?: string }) => ({
      code: error.code ?? -1,
      stdout: error.stdout ?? '',
    }),
  );
  const json = result.stdout.slice(result.stdout.indexOf('['), result.stdout.lastIndexOf(']') + 1);
  return { code: result.code, checks: JSON.parse(json) as Check[], out: result.stdout };
}

describe('MCP conformance suite 0.1.13: tool results with content', () => {
  it.each([
    'tools-call-image',
    'tools-call-audio',
    'tools-call-embedded-resource',
    'tools-call-mixed-content',
  ])('%s passes', async (name) => {
    const { code, checks, out } = await scenario(name);
    expect(checks.length, out).toBeGreaterThan(0);
    expect(
      checks.filter((c) => c.status !== 'SUCCESS'),
      out,
    ).toEqual([]);
    expect(code, out).toBe(0);
  });
});
