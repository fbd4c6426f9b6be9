import fc from 'fast-check';
import { expect } from 'vitest';
import type { Checkpoint, CheckpointStore } from '../checkpoint/checkpoint-store.js';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { makeCheckpoint } from '../testing/make-checkpoint.js';

// Any sequence of saves, forks (from any checkpoint, of forks too), prunes and deletes leaves a
// store giving back exactly what the in-memory store gives back. The in-memory store copies a
// fork's conversation when the fork is made; a database shares it with the origin and copies
// it in when the origin is deleted, so this is what tells the two designs apart.

type Command =
  | { kind: 'save'; thread: number; messages: number; log: number }
  | { kind: 'fork'; thread: number; from: number; at: number; messages: number; log: number }
  | { kind: 'prune'; thread: number; keepLast: number }
  | { kind: 'delete'; thread: number };

const THREADS = 3;
const thread = fc.integer({ min: 0, max: THREADS - 1 });
const count = fc.integer({ min: 0, max: 3 });

// Saves and forks most: a fork that its origin outgrows, then deleted, is what must hold.
const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('save' as const),
      thread,
      messages: count,
      log: count,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('fork' as const),
      thread,
      from: thread,
      at: fc.nat(),
      messages: count,
      log: count,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('prune' as const),
      thread,
      keepLast: fc.integer({ min: 1, max: 2 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), thread }) },
);

interface Head {
  readonly sequence: number;
  readonly messages: number;
  readonly log: number;
}

/** A checkpoint of `threadId` adding `counts` new messages and log entries after `from`. */
function checkpointOf(
  threadId: string,
  sequence: number,
  from: { messages: number; log: number },
  counts: { messages: number; log: number },
  tag: string,
): Checkpoint {
  const rows = (n: number, what: string) =>
    Array.from({ length: n }, (_, i) => ({
      role: 'user' as const,
      content: `${what} ${tag}.${i}`,
    }));
  const checkpoint = makeCheckpoint(threadId, sequence, from, rows(counts.messages, threadId));
  return {
    ...checkpoint,
    conversation: { ...checkpoint.conversation, log: rows(counts.log, `${threadId} log`) as never },
  };
}

/** Runs `command` on both stores: both accept it, or both refuse it with the same code. */
async function apply(
  store: CheckpointStore,
  model: InMemoryCheckpointStore,
  heads: Map<string, Head>,
  ids: readonly string[],
  command: Command,
  tag: string,
): Promise<void> {
  const id = ids[command.thread]!;
  const both = async (work: (on: CheckpointStore) => Promise<unknown>) => {
    const [expected, got] = await Promise.all(
      [model, store].map((on) =>
        work(on).then(
          (value) => ({ value }),
          (error: { code?: string }) => ({ error: error.code ?? String(error) }),
        ),
      ),
    );
    expect(got).toEqual(expected);
    return expected!;
  };
  if (command.kind === 'prune') {
    await both((on) => on.prune(id, { keepLast: command.keepLast }));
    return;
  }
  if (command.kind === 'delete') {
    await both((on) => on.delete(id));
    heads.delete(id);
    return;
  }
  let checkpoint: Checkpoint;
  if (command.kind === 'fork') {
    const origin = ids[command.from]!;
    if (heads.has(id) || origin === id || !heads.has(origin)) return;
    const infos = await model.list(origin);
    const at = infos[command.at % infos.length]!;
    const log = (await model.load(origin, at.id))!.conversation.log.length;
    const from = { messages: at.messageCount, log };
    checkpoint = {
      ...checkpointOf(id, 1, from, command, tag),
      forkOf: { threadId: origin, checkpointId: at.id },
    };
  } else {
    const head = heads.get(id);
    const from = head ? { messages: head.messages, log: head.log } : { messages: 0, log: 0 };
    checkpoint = checkpointOf(id, (head?.sequence ?? 0) + 1, from, command, tag);
  }
  if ('error' in (await both((on) => on.save(checkpoint)))) return;
  const { from, messages, log } = checkpoint.conversation;
  heads.set(id, {
    sequence: checkpoint.sequence,
    messages: from.messages + messages.length,
    log: from.log + log.length,
  });
}

/** Every listed checkpoint of `ids` and each one loaded, as `on` gives them back. */
async function contents(on: CheckpointStore, ids: readonly string[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const id of ids) {
    const infos = await on.list(id);
    out.push(infos);
    for (const info of infos) out.push(await on.load(id, info.id));
  }
  return out;
}

/**
 * Random sequences of saves, forks, prunes and deletes on `store`, each run on threads of its
 * own (`fm<run>-a`…), against a new in-memory store: the same threads come back.
 */
export async function checkForksAgainstModel(store: CheckpointStore, runs: number): Promise<void> {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 16 }), async (commands) => {
      const prefix = `fm${++run}`;
      const ids = Array.from({ length: THREADS }, (_, i) => `${prefix}-${'abc'[i]}`);
      const model = new InMemoryCheckpointStore();
      const heads = new Map<string, Head>();
      for (const [i, next] of commands.entries())
        await apply(store, model, heads, ids, next, `${prefix}.${i}`);
      expect(await contents(store, ids)).toEqual(await contents(model, ids));
    }),
    { numRuns: runs },
  );
}
