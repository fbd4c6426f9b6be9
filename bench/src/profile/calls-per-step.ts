// How many JavaScript function calls one engine step makes, counted by V8's precise coverage.
// Usage: pnpm --filter @skein/bench calls [loop|fan-out] [n]   (default: loop 1000)
//
// Until V8 has optimised a function, every call to it is a real call, and a function called once
// per step needs hundreds of steps before it is optimised (decision notes 0005 and 0014). So the
// number of calls and of distinct functions per step is what a cold step pays for, and unlike a
// timing it is the same on every run and every machine. `loop` is the engine suite's loop
// (VARIABLE + ROUTE, a checkpoint per node, one step = one iteration); `fan-out` is the fan-out
// suite's MAP (one step = one branch).
import { Session } from 'node:inspector/promises';
import { skeinLoop } from '../engine-loop/skein-loop.js';
import { prepareSkeinMap } from '../fan-out/skein-map.js';

const [subject = 'loop', nArg = '1000'] = process.argv.slice(2).filter((a) => a !== '--');
const n = Number(nArg);
if (!Number.isInteger(n) || n < 1) throw new Error(`n must be a positive integer, got ${nArg}`);

async function prepare(): Promise<(k: number) => Promise<unknown>> {
  if (subject === 'loop') return (k) => skeinLoop(k, true);
  if (subject === 'fan-out') {
    const map = prepareSkeinMap(100);
    return async (k) => {
      await map.run(Array.from({ length: k }, (_, i) => i + 1));
      await map.cleanUp();
    };
  }
  throw new Error(`unknown subject ${subject}: loop or fan-out`);
}

interface FunctionCoverage {
  readonly functionName: string;
  readonly ranges: readonly { readonly count: number }[];
}
interface ScriptCoverage {
  readonly url: string;
  readonly functions: readonly FunctionCoverage[];
}

/** Calls per function during `run(k)`: coverage is reset first, so set-up is not counted. */
async function callsDuring(session: Session, run: () => Promise<unknown>) {
  await session.post('Profiler.takePreciseCoverage');
  await run();
  const { result } = (await session.post('Profiler.takePreciseCoverage')) as {
    result: ScriptCoverage[];
  };
  const calls = new Map<string, number>();
  for (const script of result) {
    if (script.url === '' || script.url.includes('/calls-per-step.')) continue;
    const file = script.url.split('/').slice(-2).join('/');
    for (const fn of script.functions) {
      const count = fn.ranges[0]?.count ?? 0;
      if (count === 0) continue;
      const name = `${fn.functionName || '(anonymous)'} ${file}`;
      calls.set(name, (calls.get(name) ?? 0) + count);
    }
  }
  return calls;
}

const run = await prepare();
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
// A small run first, so that what happens once per process or per run (imports, validation,
// compiling expressions) falls out of the difference below.
const small = await callsDuring(session, () => run(1));
const large = await callsDuring(session, () => run(n + 1));
session.disconnect();

const perStep: [string, number][] = [];
for (const [name, count] of large) {
  const each = (count - (small.get(name) ?? 0)) / n;
  if (each >= 0.5) perStep.push([name, each]);
}
perStep.sort((a, b) => b[1] - a[1]);
const total = perStep.reduce((sum, [, each]) => sum + each, 0);
console.log(
  `${subject}, ${n} steps: ${total.toFixed(1)} calls per step, to ${perStep.length} functions called at least every other step`,
);
for (const [name, each] of perStep.slice(0, 30))
  console.log(`${each.toFixed(2).padStart(7)}  ${name}`);
