import { join } from 'node:path';
import { SkeinEngine, WorkflowBuilder } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { SqliteCheckpointStore } from '@skein/store-sqlite';

/** A long thread's shape: how many nodes it runs before it pauses, and whether it talks. */
interface LongThread {
  readonly name: string;
  /** Nodes run before the pause (each one a checkpoint). */
  readonly steps: number;
  /** Messages in its conversation at the pause. */
  readonly messages: number;
}

export interface ForkTimes {
  readonly thread: LongThread;
  /** ms to run the thread to its pause (once). */
  readonly buildMs: number;
  /** Every measured run, ms. */
  readonly load: number[];
  readonly fork: number[];
  /**
   * `loadThread` and then one first checkpoint of its state under a new id, no messages: what any
   * fork that is stored at once must at least do (read the thread, commit one row).
   */
  readonly floor: number[];
}

/**
 * Without a conversation: START, then `rounds` x (VARIABLE, ROUTE), then a USER_INTERACTION
 * where it pauses. With one: START, then `rounds` x (LLM, VARIABLE, ROUTE), the model answering
 * at once (a prompt and an answer added each round), then the same pause.
 */
function longWorkflow(rounds: number, talks: boolean) {
  const builder = new WorkflowBuilder(talks ? 'long-talk' : 'long-quiet', '1')
    .variables({ defaults: { n: 0 } })
    .start();
  if (talks) builder.llm('ask', { prompt: 'step {{ vars.n }}' });
  builder
    .variable('note', { assign: { n: 'vars.n + 1' } })
    .route('check')
    .userInteraction('park', { prompt: 'Go on?', variable: 'answer' })
    .end('end', { output: 'vars.n' });
  const first = talks ? 'ask' : 'note';
  if (talks) builder.chain('start', 'ask', 'note', 'check');
  else builder.chain('start', 'note', 'check');
  return builder
    .edge('check', first, { when: `vars.n < ${rounds}` })
    .edge('check', 'park')
    .chain('park', 'end')
    .build();
}

function longEngine(store: SqliteCheckpointStore): SkeinEngine {
  const llm = new ScriptedLLMClient(() => ({ content: 'ok' }), { stream: false });
  return new SkeinEngine({ llm, store });
}

/**
 * Runs a thread of about `steps` nodes to its pause on a SQLite store in `dir`, then times
 * `engine.loadThread(id)`, `engine.fork(id, { variables })` (from its latest checkpoint, where
 * it is PAUSED: stored, not run) and the floor (see `ForkTimes.floor`), in turn, `runs` times each after `warmup` of each.
 */
export async function forkVsLoad(
  dir: string,
  steps: number,
  talks: boolean,
  runs: number,
  warmup = 2,
): Promise<ForkTimes> {
  const filename = join(dir, `long-${talks}-${steps}.db`);
  const perRound = talks ? 3 : 2;
  const rounds = Math.round((steps - 2) / perRound);
  const workflow = longWorkflow(rounds, talks);
  const id = 'long';
  // Built without an fsync per checkpoint (10,000 of them take seconds on a busy disk), then
  // reopened as the store is by default (synchronous FULL) for what is timed.
  const building = new SqliteCheckpointStore({ filename, synchronous: 'normal' });
  const started = performance.now();
  let messages: number;
  try {
    const engine = longEngine(building);
    engine.registerWorkflow(workflow);
    const { result, thread } = await engine.run(workflow.id, {
      threadId: id,
      maxSteps: rounds * perRound + 10,
    });
    if (result.status !== 'PAUSED') throw new Error(`the long thread ended ${result.status}`);
    messages = thread.conversation.getMessages().length;
  } finally {
    building.close();
  }
  const buildMs = performance.now() - started;
  const store = new SqliteCheckpointStore({ filename });
  try {
    const engine = longEngine(store);
    engine.registerWorkflow(workflow);
    const shape: LongThread = {
      name: talks ? 'with a conversation' : 'no conversation',
      steps: (await store.list(id)).length,
      messages,
    };
    const load: number[] = [];
    const fork: number[] = [];
    const floor: number[] = [];
    const timed = async (work: () => Promise<void>): Promise<number> => {
      const started = performance.now();
      await work();
      return performance.now() - started;
    };
    const subjects = {
      load: async () => {
        const loaded = await engine.loadThread(id);
        if (loaded.status !== 'PAUSED') throw new Error('the loaded thread is not PAUSED');
      },
      fork: async (i: number) => {
        const forked = await engine.fork(id, { threadId: `fork-${i}`, variables: { forkedAt: i } });
        if (forked.result.status !== 'PAUSED') throw new Error('the fork is not PAUSED');
      },
      floor: async (i: number) => {
        const read = await engine.loadThread(id);
        const threadId = `floor-${i}`;
        await store.save({
          id: `${threadId}:1`,
          threadId,
          sequence: 1,
          createdAt: new Date().toISOString(),
          state: { ...read.state, threadId },
          conversation: { version: 1, from: { messages: 0, log: 0 }, messages: [], log: [] },
        });
      },
    };
    // Each rebuilds the conversation and leaves it as garbage for whichever runs next: the three
    // take turns being first, so none always pays for another's (a fixed order made fork, always
    // after load, pay for load's 6,666 messages in some processes).
    const orders = [
      ['load', 'fork', 'floor'],
      ['fork', 'floor', 'load'],
      ['floor', 'load', 'fork'],
    ] as const;
    for (let i = 0; i < warmup + runs; i++) {
      const ms = { load: 0, fork: 0, floor: 0 };
      for (const what of orders[i % orders.length]!)
        ms[what] = await timed(() => subjects[what](i));
      if (i >= warmup) {
        load.push(ms.load);
        fork.push(ms.fork);
        floor.push(ms.floor);
      }
    }
    return { thread: shape, buildMs, load, fork, floor };
  } finally {
    store.close();
  }
}
