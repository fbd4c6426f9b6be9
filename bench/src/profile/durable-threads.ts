// Many model-bound threads at once on one store, alone in a process: the durable-throughput row
// (START, 10 x (LLM waiting 50 ms, VARIABLE, ROUTE), END) for one store and one thread count, to
// compare builds run after run (A/B) and to profile. Usage:
//
//   pnpm --filter @skein/bench durable <memory|sqlite|postgres|langgraph> [threads=1000] [runs=3]
//   threads 1 measures one thread of 2,000 steps with no model wait (ms per step); langgraph is
//   the same threads in LangGraph on MemorySaver (the suite's peer row), not a Skein store
//
// BENCH_SQLITE_DRIVER picks the SQLite driver (default: the store's own choice);
// SKEIN_TEST_PG_URL a PostgreSQL server to use (default: an embedded one started here);
// BENCH_NO_INBOX=1 hides the store's inbox from the engine (no inbox read before each model call
// and at each run's end), to measure what reading it costs (decision 0036);
// BENCH_CPU_PROF=<file> writes a CPU profile of the measured runs (not the warm-up). Beside each
// run's wall time it prints the CPU time the process used (user + system, all its threads): on a
// machine shared with other jobs that moves less than the wall time does. On PostgreSQL it prints
// the server's CPU time per run too (Linux only): the server shares the machine's cores.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CheckpointStore, InMemoryCheckpointStore } from '@skein/core';
import { PostgresCheckpointStore } from '@skein/store-postgres';
import { startTestPostgres } from '@skein/store-postgres/testing';
import { SqliteCheckpointStore, type SqliteDriverName } from '@skein/store-sqlite';
import { langGraphThreadsAtOnce } from '../durable-throughput/langgraph-steps.js';
import {
  modelStepsEngine,
  nodesPerThread,
  runThreadsAtOnce,
} from '../durable-throughput/model-steps.js';
import { DELAY_MS, IDEAL_MS, STEPS } from '../durable-throughput/store-rows.js';
import { serverCpuReader } from './server-cpu.js';

const [kind = 'sqlite', threadsArg = '1000', runsArg = '3'] = process.argv
  .slice(2)
  .filter((a) => a !== '--');
const threads = Number(threadsArg);
const runs = Number(runsArg);
const LONG_ROUNDS = 666; // 3 x 666 + 2 = 2,000 nodes, as store-rows' one-thread row

interface Opened {
  readonly store: CheckpointStore;
  close(): Promise<void>;
}

interface Opener {
  open(name: string): Promise<Opened>;
  stop(): Promise<void>;
  /** The database server's CPU time so far, in ms, when it runs apart and can be read. */
  serverCpu?: () => Promise<number>;
}

async function opener(): Promise<Opener> {
  if (kind === 'memory' || kind === 'langgraph')
    return {
      open: async () => ({ store: new InMemoryCheckpointStore(), close: async () => {} }),
      stop: async () => {},
    };
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'skein-durable-threads-'));
    const driver = process.env.BENCH_SQLITE_DRIVER as SqliteDriverName | undefined;
    return {
      open: async (name) => {
        const store = new SqliteCheckpointStore({
          filename: join(dir, `${name}.db`),
          ...(driver ? { driver } : {}),
        });
        return { store, close: async () => store.close() };
      },
      stop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (kind === 'postgres') {
    const server = await startTestPostgres();
    const serverCpu = await serverCpuReader(server.connectionString);
    return {
      ...(serverCpu ? { serverCpu } : {}),
      open: async () => {
        const store = new PostgresCheckpointStore({
          connectionString: await server.createDatabase(),
        });
        await store.migrate();
        return { store, close: () => store.close() };
      },
      stop: () => server.stop(),
    };
  }
  throw new Error(`unknown store ${kind}: memory, sqlite or postgres`);
}

/** `store` as a store without an inbox (`postMessage`, `pendingMessages`): A/B of its reads. */
function withoutInbox(store: CheckpointStore): CheckpointStore {
  return new Proxy(store, {
    get(target, key) {
      if (key === 'postMessage' || key === 'pendingMessages') return undefined;
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const { open: openStore, stop, serverCpu } = await opener();
const open = async (name: string): Promise<Opened> => {
  const opened = await openStore(name);
  return process.env.BENCH_NO_INBOX ? { ...opened, store: withoutInbox(opened.store) } : opened;
};
const profile = process.env.BENCH_CPU_PROF;
const session = profile ? new Session() : undefined;
const times: number[] = [];
const cpu: number[] = [];
const serverTimes: number[] = [];
try {
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
  }
  for (let r = 0; r <= runs; r++) {
    const serverBefore = await serverCpu?.();
    const { store, close } = await open(`r${r}`);
    try {
      // Run 0 warms the JIT up and is not counted (nor profiled).
      if (r === 1 && session) await session.post('Profiler.start');
      const used = process.cpuUsage();
      if (kind === 'langgraph') {
        const ms = await langGraphThreadsAtOnce(threads, STEPS, DELAY_MS);
        if (r > 0) times.push(ms / IDEAL_MS);
      } else if (threads === 1) {
        const engine = modelStepsEngine(store, LONG_ROUNDS, 0);
        const ms = await runThreadsAtOnce(engine, `long-${r}`, 1, LONG_ROUNDS);
        if (r > 0) times.push(ms / nodesPerThread(LONG_ROUNDS));
      } else {
        const engine = modelStepsEngine(store, STEPS, DELAY_MS);
        const ms = await runThreadsAtOnce(engine, `t-${r}`, threads, STEPS);
        if (r > 0) times.push(ms / IDEAL_MS);
      }
      const { user, system } = process.cpuUsage(used);
      if (r > 0) cpu.push((user + system) / 1000);
    } finally {
      await close();
    }
    if (r > 0 && serverCpu && serverBefore !== undefined)
      serverTimes.push((await serverCpu()) - serverBefore);
  }
  if (session && profile) {
    const { profile: taken } = await session.post('Profiler.stop');
    writeFileSync(profile, JSON.stringify(taken));
  }
} finally {
  session?.disconnect();
  await stop();
}
const unit = threads === 1 ? 'ms/step' : 'x ideal';
console.log(
  `${kind}${process.env.BENCH_SQLITE_DRIVER ? ` (${process.env.BENCH_SQLITE_DRIVER})` : ''}${process.env.BENCH_NO_INBOX ? ' (no inbox)' : ''} ${threads} threads: ${times.map((t) => t.toFixed(3)).join(' ')} ${unit}; CPU ${cpu.map((t) => t.toFixed(0)).join(' ')} ms${serverTimes.length > 0 ? `; server CPU ${serverTimes.map((t) => t.toFixed(0)).join(' ')} ms` : ''}; load ${loadavg()[0]!.toFixed(1)}`,
);
