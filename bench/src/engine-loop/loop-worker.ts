// Runs one subject in its own process so its peak RSS is its own. Prints one JSON line.
// Usage: node --import tsx loop-worker.ts <subject> <n> <withMessage 0|1> <warmup n> [warmup runs, default 2]
const [subject, nArg, messageArg, warmArg] = process.argv.slice(2);
const n = Number(nArg);
const warm = Number(warmArg ?? 1000);
const withMessage = messageArg === '1';

async function load(): Promise<(n: number) => Promise<void>> {
  switch (subject) {
    case 'skein':
    case 'skein-no-store': {
      const { skeinLoop } = await import('./skein-loop.js');
      const checkpoints = subject === 'skein' ? 'in-memory' : 'none';
      return (k) => skeinLoop(k, withMessage, checkpoints);
    }
    case 'langgraph': {
      const { langGraphLoop } = await import('./langgraph-loop.js');
      return (k) => langGraphLoop(k, withMessage);
    }
    case 'mastra': {
      const { mastraLoop } = await import('./mastra-loop.js');
      return (k) => mastraLoop(k);
    }
    case 'plain': {
      const { plainLoop } = await import('./plain-loop.js');
      return (k) => plainLoop(k, withMessage);
    }
    case 'skein-threads': {
      const { skeinThreads } = await import('./skein-threads.js');
      return (k) => skeinThreads(k);
    }
    default:
      throw new Error(`unknown subject ${subject}`);
  }
}

const run = await load();
// Two warm-up runs: V8 needs more than one to finish optimising the hot paths.
const warmRuns = Number(process.argv[6] ?? 2);
for (let i = 0; i < warmRuns && warm > 0; i++) await run(warm);
const start = process.hrtime.bigint();
await run(n);
const ms = Number(process.hrtime.bigint() - start) / 1e6;
process.stdout.write(
  `${JSON.stringify({ ms, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`,
);

export {};
