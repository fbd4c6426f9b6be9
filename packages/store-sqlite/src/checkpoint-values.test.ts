import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from './test-support/driver.js';
import { makeCheckpoint } from './test-support/make-checkpoint.js';

const root = mkdtempSync(join(tmpdir(), 'skein-sqlite-values-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
function freshFile(): string {
  const dir = join(root, `case-${++counter}`);
  mkdirSync(dir);
  return join(dir, 'threads.db');
}

/** Every file beside the database with a hash of its bytes: what "untouched" is checked against. */
function snapshot(filename: string): Record<string, string> {
  const dir = join(filename, '..');
  return Object.fromEntries(
    readdirSync(dir).map((name) => [
      name,
      createHash('sha256')
        .update(readFileSync(join(dir, name)))
        .digest('hex'),
    ]),
  );
}

const first = () =>
  makeCheckpoint('t', 1, { messages: 0, log: 0 }, [{ role: 'user', content: 'a' }], {
    variables: { n: 1 },
  });

describe('values in a stored checkpoint', () => {
  it('come back exactly as saved, -0 and lone surrogates included', async () => {
    const store = openStore({ filename: ':memory:' });
    const value = { zero: -0, list: [-0, 0, 1e308, -5e-324], text: '\ud800 \u0000 ß→✓ 東京 🧶' };
    const saved = makeCheckpoint('t', 1, { messages: 0, log: 0 }, [], { variables: value });
    await store.save(saved);
    const loaded = (await store.load('t'))!;
    expect(Object.is(loaded.state.variables.zero as number, -0)).toBe(true);
    expect(loaded.state).toEqual(saved.state);
    store.close();
  });

  it('come back exactly as saved, for any JSON value in variables, outputs and messages', async () => {
    const store = openStore({ filename: ':memory:' });
    let thread = 0;
    try {
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
        { numRuns: 200 },
      );
    } finally {
      store.close();
    }
    // 200 saves and loads of generated values: about 1 s alone, several under a parallel build.
  }, 60_000);

  it.each([
    ['NaN', { variables: { score: Number.NaN } }, 'checkpoint.state.variables.score', /NaN/],
    [
      'Infinity',
      { nodeOutputs: { calc: { total: Number.POSITIVE_INFINITY } } },
      'checkpoint.state.nodeOutputs.calc.total',
      /Infinity/,
    ],
    ['a BigInt', { lastOutput: { id: 12n } }, 'checkpoint.state.lastOutput.id', /BigInt/],
    ['a Date', { variables: { at: new Date(0) } }, 'checkpoint.state.variables.at', /Date/],
    [
      'undefined in an array',
      { variables: { list: [1, undefined, 3] } },
      'checkpoint.state.variables.list[1]',
      /undefined/,
    ],
    ['a Map', { variables: { seen: new Map() } }, 'checkpoint.state.variables.seen', /Map/],
    ['a function', { output: { toJSON: () => 'x' } }, 'checkpoint.state.output.toJSON', /function/],
  ] as const)(
    'refuses %s in the state with STORE_UNSERIALIZABLE before writing anything; the previous checkpoint stays the latest',
    async (_name, state, path, reason) => {
      const filename = freshFile();
      const store = openStore({ filename, synchronous: 'normal' });
      await store.save(first());
      const before = await store.load('t');
      const files = snapshot(filename);
      const error = await store
        .save(makeCheckpoint('t', 2, { messages: 1, log: 0 }, [], state))
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        name: 'StoreError',
        code: 'STORE_UNSERIALIZABLE',
        details: { filename, path, threadId: 't', checkpointId: 't:2' },
      });
      expect((error as Error).message).toContain(path);
      expect((error as Error).message).toMatch(reason);
      expect(snapshot(filename)).toEqual(files);
      expect(await store.load('t')).toEqual(before);
      expect((await store.list('t')).map((c) => c.id)).toEqual(['t:1']);
      // The store goes on: the next good checkpoint is written.
      await store.save(makeCheckpoint('t', 2, { messages: 1, log: 0 }));
      expect((await store.listThreads())[0]).toMatchObject({ lastCheckpointId: 't:2' });
      store.close();
    },
  );

  it('refuses a message or log entry JSON would change, naming the field inside it', async () => {
    const filename = freshFile();
    const store = openStore({ filename });
    await store.save(first());
    const files = snapshot(filename);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    await expect(
      store.save(
        makeCheckpoint('t', 2, { messages: 1, log: 0 }, [
          { role: 'assistant', content: 'b' },
          { role: 'tool', content: 'c', toolCallId: 'x', metadata: { rows: [1, 2n] } },
        ]),
      ),
    ).rejects.toMatchObject({
      code: 'STORE_UNSERIALIZABLE',
      details: { path: 'checkpoint.conversation.messages[1].metadata.rows[1]' },
    });
    const withLog = makeCheckpoint('t', 2, { messages: 1, log: 0 });
    await expect(
      store.save({
        ...withLog,
        conversation: { ...withLog.conversation, log: [cycle as never] },
      }),
    ).rejects.toMatchObject({
      code: 'STORE_UNSERIALIZABLE',
      details: { path: 'checkpoint.conversation.log[0].self' },
      message: expect.stringMatching(/cycle/),
    });
    expect(snapshot(filename)).toEqual(files);
    expect((await store.load('t'))!.checkpoint.id).toBe('t:1');
    store.close();
  });

  it('reports a value that throws while being read as STORE_UNSERIALIZABLE, not a raw error', async () => {
    const store = openStore({ filename: ':memory:' });
    const variables = {};
    Object.defineProperty(variables, 'secret', {
      enumerable: true,
      get() {
        throw new Error('no access');
      },
    });
    await expect(
      store.save(makeCheckpoint('t', 1, { messages: 0, log: 0 }, [], { variables })),
    ).rejects.toMatchObject({
      code: 'STORE_UNSERIALIZABLE',
      details: { path: 'checkpoint.state' },
      message: expect.stringMatching(/no access/),
    });
    expect(await store.listThreads()).toEqual([]);
    store.close();
  });
});
