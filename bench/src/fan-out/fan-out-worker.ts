// Runs one fan-out subject in its own process and prints one JSON line:
// { times: [wall ms per measured run], cpuTimes: [CPU ms (user + system) per run], maxRssMb }.
// CPU time is reported too because the machine is shared: wall time includes time the process
// waited for a core.
// Usage: node --import tsx fan-out-worker.ts <subject> <n> <warmup n> <runs> [maxConcurrency]
// Each subject is built once (engine, compiled graph, committed workflow), as an app builds it, and
// run `runs` times after the warm-up, back to back as a server runs requests. No full GC is forced
// before a timed run: it drops the hidden classes V8's inline caches point to, so each run would
// re-warm them (decision 0017); SKEIN_BENCH_FORCE_GC=1 forces one, for comparison.
// Subjects: skein | langgraph | mastra | plain (n items, value x 2, results checked in item
// order); skein-llm (n branches each calling the scripted model with a 20 ms delay).
const [subject, nArg, warmArg, runsArg, concurrencyArg] = process.argv.slice(2);
const n = Number(nArg);
const warm = Number(warmArg ?? 200);
const runs = Number(runsArg ?? 1);
const concurrency = Number(concurrencyArg ?? 100);
const LLM_DELAY_MS = 20;

/** One subject, built once per process as an app builds it; `cleanUp` runs after each timing. */
interface Subject {
  readonly run: (n: number) => Promise<unknown>;
  readonly cleanUp?: () => Promise<void>;
}

const itemsOf = (k: number) => Array.from({ length: k }, (_, i) => i + 1);

/** Item-order check: values are 1..k, so the results must be 2, 4, …, 2k. */
function checked(
  run: (items: number[]) => Promise<unknown>,
  cleanUp?: () => Promise<void>,
): Subject {
  return {
    run: async (k) => {
      const out = await run(itemsOf(k));
      if (!Array.isArray(out) || out.length !== k || out.some((v, i) => v !== 2 * (i + 1)))
        throw new Error(`${subject}: results not doubled in item order`);
    },
    ...(cleanUp ? { cleanUp } : {}),
  };
}

async function load(): Promise<Subject> {
  switch (subject) {
    case 'skein': {
      const { prepareSkeinMap } = await import('./skein-map.js');
      const { run, cleanUp } = prepareSkeinMap(concurrency);
      return checked(run, cleanUp);
    }
    case 'langgraph': {
      const { prepareLangGraphSend } = await import('./langgraph-send.js');
      return checked(prepareLangGraphSend());
    }
    case 'mastra': {
      const { prepareMastraForeach } = await import('./mastra-foreach.js');
      return checked(prepareMastraForeach());
    }
    case 'plain': {
      const { plainAll } = await import('./plain-all.js');
      return checked(plainAll);
    }
    case 'skein-llm': {
      const { prepareSkeinLlmMap } = await import('./skein-llm-map.js');
      return prepareSkeinLlmMap(concurrency, LLM_DELAY_MS);
    }
    default:
      throw new Error(`unknown subject ${subject}`);
  }
}

const { run, cleanUp } = await load();
if (warm > 0) await run(warm);
await cleanUp?.();
const times: number[] = [];
const cpuTimes: number[] = [];
for (let i = 0; i < runs; i++) {
  if (process.env.SKEIN_BENCH_FORCE_GC === '1') (globalThis as { gc?: () => void }).gc?.();
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  await run(n);
  times.push(Number(process.hrtime.bigint() - start) / 1e6);
  const used = process.cpuUsage(cpu);
  cpuTimes.push((used.user + used.system) / 1000);
  await cleanUp?.();
}
process.stdout.write(
  `${JSON.stringify({ times, cpuTimes, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`,
);

export {};
