import { InMemoryCheckpointStore, SkeinEngine } from '@skein/core';
import { instrumentSkein } from '@skein/otel';
import { loopWorkflow } from '../engine-loop/loop-workflow.mjs';

// One subject of the otel suite's instruction count: run under `valgrind --tool=callgrind`, it
// runs the engine-step loop `iterations` times, never instrumented or instrumented and then
// uninstrumented. Timing on a shared 2-core machine moves by ±30% between runs; the number of
// instructions executed moves by a few percent, so the suite can compare those. Two loop lengths
// per mode and their difference leave out node's start-up and module loading.
// Plain JavaScript on purpose: a TypeScript loader adds start-up work that varies from run to run.
// Usage: valgrind --tool=callgrind node --single-threaded --hash-seed=1 --random-seed=1
//          --predictable-gc-schedule step-count-worker.mjs none|uninstrumented <iterations>

const [mode, iterationsArg] = process.argv.slice(2);
const iterations = Number(iterationsArg);
if ((mode !== 'none' && mode !== 'uninstrumented') || !Number.isInteger(iterations)) {
  console.error('usage: step-count-worker.mjs none|uninstrumented <iterations>');
  process.exit(2);
}

/** @param {number} n */
function loopEngine(n) {
  const engine = new SkeinEngine({ store: new InMemoryCheckpointStore() });
  engine.registerWorkflow(loopWorkflow(n, true));
  // Both modes load @skein/otel (imported above), so start-up costs the same in both.
  if (mode === 'uninstrumented') instrumentSkein(engine).uninstrument();
  return engine;
}

/** @param {number} n */
async function run(n) {
  const { result } = await loopEngine(n).run('loop', { maxSteps: 2 * n + 12 });
  if (result.output !== n) throw new Error(`loop ended at ${String(result.output)}`);
}

// The same warm-up in every process, so the measured loop starts from the same JIT state.
await run(2_000);
await run(iterations);
