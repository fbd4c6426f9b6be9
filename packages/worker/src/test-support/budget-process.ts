// A process of the rate budget test: makes `count` model calls (two at a time) to an
// OpenAI-compatible server, drawing each from one PostgresRateBudget shared with the other
// process the way @skein/runner's limitModel does (acquire before, settle after, a 429 pauses the
// budget for its retry-after and is retried; @skein/runner sits above this package, so its tests
// cannot use limitModel itself). Prints `ready`, starts on a line on stdin, and prints one JSON
// line when done. The token budget is ample: it is there so settles run alongside the draws.
import { createRateBudget } from '../index.js';

const [connectionString, url, label, name, rpm, burstSeconds, count] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
];
const budget = createRateBudget({
  connectionString,
  name,
  rpm: Number(rpm),
  tpm: 1_000_000,
  burstSeconds: Number(burstSeconds),
});
await budget.migrate();
process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ESTIMATE = 20;
let refused = 0;
const now = () => performance.timeOrigin + performance.now();
/** When each draw on the budget began and when it was granted (machine clock, ms). */
const draws: { startedAt: number; grantedAt: number }[] = [];
/** When this process had paused the budget after a 429 (machine clock, ms). */
const pauses: number[] = [];

async function call(i: number): Promise<void> {
  for (;;) {
    const startedAt = now();
    await budget.acquire(ESTIMATE);
    draws.push({ startedAt, grantedAt: now() });
    const response = await fetch(`${url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: label,
        messages: [{ role: 'user', content: `${label} ${i}` }],
      }),
    });
    const body = (await response.json()) as { usage?: { total_tokens?: number } };
    if (response.status === 429) {
      refused++;
      const wait = Number(response.headers.get('retry-after-ms') ?? 1_000);
      await budget.pauseFor(wait);
      pauses.push(now());
      await budget.settle(ESTIMATE, 0);
      await sleep(wait);
      continue;
    }
    if (!response.ok) throw new Error(`model answered ${response.status}`);
    await budget.settle(ESTIMATE, body.usage?.total_tokens ?? ESTIMATE);
    return;
  }
}

let next = 0;
const total = Number(count);
await Promise.all(
  [0, 1].map(async () => {
    while (next < total) await call(next++);
  }),
);
process.stdout.write(`${JSON.stringify({ label, refused, draws, pauses })}\n`);
await budget.close();
process.exit(0);
