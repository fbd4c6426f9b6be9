import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startOpenAICompatibleServer } from '@skein/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProxiedRequest, startRecordingProxy } from './test-support/recording-proxy.js';
import { startPostgres, type TestPostgres } from './test-support/start-postgres.js';

// Two processes draw on one PostgresRateBudget while calling one OpenAI-compatible server. What
// the server saw (arrival times noted by a pass-through in front of it) must keep to the budget
// taken together, and a 429 met by one process must hold back the other for its retry-after.

// A literal URL, so tools that follow imports (knip) see the child script too.
const childScript = fileURLToPath(new URL('./test-support/budget-process.ts', import.meta.url));

/**
 * A request reaches the server some time after its draw was granted: the database's answer
 * travels back, then the HTTP request goes out. On a loaded 2-core machine that delay varies by
 * up to a few hundred ms, which can pull requests granted apart closer together at the server.
 * Window counts are therefore bounded by the budget over the window plus this much.
 */
const JITTER_MS = 1_000;

interface Draw {
  readonly startedAt: number;
  readonly grantedAt: number;
}
interface ChildReport {
  readonly label: string;
  readonly refused: number;
  readonly draws: readonly Draw[];
  readonly pauses: readonly number[];
}

let pg: TestPostgres;
beforeAll(async () => {
  pg = await startPostgres();
}, 60_000);
afterAll(async () => {
  await pg?.stop();
});

/** Starts a budget process; resolves once it is connected and waiting for the start line. */
function startChild(args: string[]): Promise<{ go(): void; report: Promise<ChildReport> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', childScript, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  let onReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    onReady = resolve;
  });
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (out.includes('ready\n')) onReady();
  });
  const report = new Promise<ChildReport>((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.split('\n').filter(Boolean).at(-1)!) as ChildReport)
        : reject(new Error(`budget process exited with ${code}`)),
    ),
  );
  return Promise.race([
    ready.then(() => ({ go: () => child.stdin.write('go\n'), report })),
    report.then(() => Promise.reject(new Error('budget process ended before it was ready'))),
  ]);
}

/** Runs two processes making `perProcess` calls each on budget `name`; what the server saw. */
async function runFleet(options: {
  name: string;
  rpm: number;
  burstSeconds: number;
  perProcess: number;
  retryAfterMs?: number;
}): Promise<{ requests: readonly ProxiedRequest[]; reports: ChildReport[] }> {
  const server = await startOpenAICompatibleServer({
    script: () => ({ content: 'ok', usage: { promptTokens: 10, completionTokens: 5 } }),
    ...(options.retryAfterMs === undefined
      ? {}
      : {
          quirks: {
            failBeforeSuccess: { status: 429, times: 1, retryAfterMs: options.retryAfterMs },
          },
        }),
  });
  const proxy = await startRecordingProxy(server.url);
  try {
    const args = (label: string) => [
      pg.connectionString,
      proxy.url,
      label,
      options.name,
      String(options.rpm),
      String(options.burstSeconds),
      String(options.perProcess),
    ];
    const children = await Promise.all([startChild(args('a')), startChild(args('b'))]);
    for (const child of children) child.go();
    const reports = await Promise.all(children.map((child) => child.report));
    return { requests: [...proxy.requests], reports };
  } finally {
    await proxy.close();
    await server.close();
  }
}

/** The most arrival times inside any window of `ms` (each window starting at an arrival). */
function busiestWindow(times: readonly number[], ms: number): number {
  const sorted = [...times].sort((x, y) => x - y);
  let most = 0;
  let end = 0;
  for (let start = 0; start < sorted.length; start++) {
    while (end < sorted.length && sorted[end]! < sorted[start]! + ms) end++;
    most = Math.max(most, end - start);
  }
  return most;
}

describe('PostgresRateBudget across processes', () => {
  it('keeps the requests of two processes together within one budget', async () => {
    // 120 rpm (2 a second) with a 1 s burst: a bucket of 2 requests for both processes together.
    const rpm = 120;
    const capacity = 2;
    const perProcess = 10;
    const { requests } = await runFleet({ name: 'fleet-rate', rpm, burstSeconds: 1, perProcess });
    expect(requests.every((r) => r.status === 200)).toBe(true);
    expect(requests.filter((r) => r.label === 'a')).toHaveLength(perProcess);
    expect(requests.filter((r) => r.label === 'b')).toHaveLength(perProcess);
    const times = requests.map((r) => r.at);
    const perMs = rpm / 60_000;
    // Each process alone would be allowed the whole budget: without sharing, the two together
    // send 2 bursts and twice the rate, which breaks these bounds from the 3 s window on.
    for (const windowMs of [1_000, 3_000, 6_000]) {
      const bound = capacity + perMs * (windowMs + JITTER_MS);
      expect(busiestWindow(times, windowMs), `requests in ${windowMs} ms`).toBeLessThanOrEqual(
        Math.floor(bound),
      );
    }
    const spanMs = Math.max(...times) - Math.min(...times);
    expect(spanMs).toBeGreaterThanOrEqual((2 * perProcess - capacity) / perMs - JITTER_MS);
    const measured = ((2 * perProcess - 1) / spanMs) * 60_000;
    console.info(
      `[rate budget] 2 processes, ${2 * perProcess} requests in ${Math.round(spanMs)} ms: ${measured.toFixed(1)} rpm combined (budget ${rpm}, burst ${capacity}); busiest 1 s/3 s/6 s windows: ${busiestWindow(times, 1_000)}/${busiestWindow(times, 3_000)}/${busiestWindow(times, 6_000)}`,
    );
  });

  it('holds back both processes after a 429 met by one of them, for its retry-after', async () => {
    const retryAfterMs = 3_000;
    const perProcess = 6;
    const { requests, reports } = await runFleet({
      name: 'fleet-429',
      rpm: 120,
      burstSeconds: 1,
      perProcess,
      retryAfterMs,
    });
    const refused = requests.filter((r) => r.status === 429);
    expect(refused).toHaveLength(1);
    expect(requests.filter((r) => r.status === 200)).toHaveLength(2 * perProcess);
    const hit = refused[0]!;
    const answered = hit.answeredAt!;
    const refusedProcess = reports.find((r) => r.label === hit.label)!;
    const other = reports.find((r) => r.label !== hit.label)!;
    expect(refusedProcess.refused).toBe(1);
    expect(other.refused).toBe(0);
    // When the refused process had written the pause; it ends retry-after from the database's
    // now then, so no earlier than `pauseEnd` (less 50 ms for timers firing a little early).
    const pausedAt = refusedProcess.pauses[0]!;
    const pauseEnd = answered + retryAfterMs - 50;
    // No draw of either process that began after the pause was written was granted before its end.
    for (const draw of [...refusedProcess.draws, ...other.draws].filter(
      (d) => d.startedAt > pausedAt,
    ))
      expect(draw.grantedAt).toBeGreaterThanOrEqual(pauseEnd);
    // The other process wanted to send meanwhile (its two callers loop without rest) and was held
    // back: a draw it began by shortly after the pause was granted only after the pause's end.
    expect(
      other.draws.some((d) => d.startedAt < pausedAt + JITTER_MS && d.grantedAt >= pauseEnd),
      JSON.stringify(other.draws.map((d) => [d.startedAt - answered, d.grantedAt - answered])),
    ).toBe(true);
    // What the server saw: requests granted before the pause was written may still arrive a
    // little after it (JITTER_MS); none later, until the retry-after has passed.
    const during = requests.filter((r) => r.at > pausedAt + JITTER_MS && r.at < pauseEnd);
    expect(during.map((r) => `${r.label} at +${Math.round(r.at - answered)} ms`)).toEqual([]);
    // And both went on afterwards.
    for (const label of ['a', 'b'])
      expect(requests.some((r) => r.label === label && r.at >= pauseEnd)).toBe(true);
    const otherAfter = requests
      .filter((r) => r.label === other.label && r.at > answered)
      .map((r) => `+${Math.round(r.at - answered)}`);
    console.info(
      `[rate budget] 429 with retry-after ${retryAfterMs} ms to "${hit.label}", pause written +${Math.round(pausedAt - answered)} ms; requests of "${other.label}" after it arrived at (ms): ${otherAfter.join(', ')}`,
    );
  });
});
