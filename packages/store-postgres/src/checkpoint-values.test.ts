import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
import { makeCheckpoint } from './test-support/make-checkpoint.js';
import { useTestPostgres } from './test-support/use-test-postgres.js';

const db = useTestPostgres();

let counter = 0;
function freshStore(): PostgresCheckpointStore {
  return new PostgresCheckpointStore({ pool: db.pool, schema: `values_${++counter}` });
}

/** Every row of the store's tables: what "untouched" is checked against. */
async function snapshot(store: PostgresCheckpointStore): Promise<unknown> {
  const s = `"${store.schema}"`;
  const read = async (table: string) =>
    (await db.pool.query(`SELECT * FROM ${s}.${table} ORDER BY 1, 2`)).rows;
  return {
    threads: await read('threads'),
    checkpoints: await read('checkpoints'),
    messages: await read('messages'),
    log: await read('log_entries'),
  };
}

const first = () =>
  makeCheckpoint('t', 1, { messages: 0, log: 0 }, [{ role: 'user', content: 'a' }], {
    variables: { n: 1 },
  });

describe('values in a stored checkpoint', () => {
  it('come back exactly as saved: -0, key order, big and tiny numbers, NUL and lone surrogates', async () => {
    const store = freshStore();
    const value = {
      zero: -0,
      list: [-0, 0, 1e308, -5e-324, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 60],
      text: '\ud800 \u0000 ß→✓ 東京 🧶',
      order: JSON.parse('{"z":1,"a":2,"10":3,"b":{"y":1,"x":2}}'),
    };
    const saved = makeCheckpoint('t', 1, { messages: 0, log: 0 }, [], { variables: value });
    await store.save(saved);
    const loaded = (await store.load('t'))!;
    expect(Object.is(loaded.state.variables.zero as number, -0)).toBe(true);
    expect(Object.is((loaded.state.variables.list as number[])[0], -0)).toBe(true);
    expect(loaded.state).toEqual(saved.state);
    expect(JSON.stringify(loaded.state.variables.order)).toBe(JSON.stringify(value.order));
  });

  it('come back exactly as saved, for any JSON value in variables, outputs and messages', async () => {
    const store = freshStore();
    let thread = 0;
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.string({ unit: 'binary' }), async (value, text) => {
        const threadId = `p${++thread}`;
        const saved = makeCheckpoint(
          threadId,
          1,
          { messages: 0, log: 0 },
          [{ role: 'user', content: text, metadata: { value } }],
          { variables: { value }, nodeOutputs: { node: value }, lastOutput: value },
        );
        await store.save(saved);
        const loaded = (await store.load(threadId))!;
        expect(loaded.state).toEqual(saved.state);
        expect(loaded.conversation.messages).toEqual(saved.conversation.messages);
      }),
      { numRuns: 150 },
    );
  }, 120_000);

  it.each([
    ['NaN', { variables: { score: Number.NaN } }, 'checkpoint.state.variables.score', /NaN/],
    ['a BigInt', { lastOutput: { id: 12n } }, 'checkpoint.state.lastOutput.id', /BigInt/],
    ['a Date', { variables: { at: new Date(0) } }, 'checkpoint.state.variables.at', /Date/],
    [
      'undefined in an array',
      { variables: { list: [1, undefined, 3] } },
      'checkpoint.state.variables.list[1]',
      /undefined/,
    ],
  ] as const)(
    'refuses %s with STORE_UNSERIALIZABLE before writing anything',
    async (_name, state, path, reason) => {
      const store = freshStore();
      await store.save(first());
      const before = await snapshot(store);
      const error = await store
        .save(makeCheckpoint('t', 2, { messages: 1, log: 0 }, [], state))
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        name: 'StoreError',
        code: 'STORE_UNSERIALIZABLE',
        details: { schema: store.schema, path, threadId: 't', checkpointId: 't:2' },
      });
      expect((error as Error).message).toMatch(reason);
      expect(await snapshot(store)).toEqual(before);
      // The store goes on: the next good checkpoint is written.
      await store.save(makeCheckpoint('t', 2, { messages: 1, log: 0 }));
      expect((await store.listThreads())[0]).toMatchObject({ lastCheckpointId: 't:2' });
    },
  );

  it.each([
    ['not an object', 42, 'checkpoint'],
    ['an empty thread id', { ...first(), threadId: '' }, 'checkpoint.threadId'],
    ['sequence 0', { ...first(), sequence: 0 }, 'checkpoint.sequence'],
    [
      'a negative message count',
      { ...first(), conversation: { ...first().conversation, from: { messages: -1, log: 0 } } },
      'checkpoint.conversation.from',
    ],
  ])('refuses a checkpoint with %s as INVALID_ARGUMENT, writing nothing', async (_n, bad, arg) => {
    const store = freshStore();
    await store.save(first());
    const before = await snapshot(store);
    await expect(store.save(bad as never)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: arg,
    });
    expect(await snapshot(store)).toEqual(before);
  });

  it('refuses a delta that skips or repeats messages with CHECKPOINT_CONFLICT, writing nothing', async () => {
    const store = freshStore();
    await store.save(first());
    const before = await snapshot(store);
    for (const from of [
      { messages: 0, log: 0 },
      { messages: 2, log: 0 },
      { messages: 1, log: 1 },
    ])
      await expect(store.save(makeCheckpoint('t', 2, from))).rejects.toMatchObject({
        code: 'CHECKPOINT_CONFLICT',
        threadId: 't',
        expected: { messages: 1, log: 0 },
        got: from,
      });
    // A second first checkpoint of an existing thread is a stale writer too.
    await expect(
      store.save(makeCheckpoint('t', 1, { messages: 1, log: 0 }, [], {}, { id: 'again' })),
    ).rejects.toMatchObject({
      code: 'CHECKPOINT_CONFLICT',
      parent: { expected: 't:1', got: undefined },
    });
    expect(await snapshot(store)).toEqual(before);
  });
});
