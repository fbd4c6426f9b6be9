import { contentText } from '@skein/spec';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
import { askEngine } from './test-support/ask-workflow.js';
import { type Child, spawnChild } from './test-support/spawn-child.js';
import { startTestPostgres, type TestPostgres } from './testing/index.js';

const WRITERS = 4;
const ROUNDS = 25;

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
});
afterAll(() => server?.stop());

async function all(children: Child[], line?: (i: number) => string): Promise<string[]> {
  if (line) for (const [i, child] of children.entries()) child.send(line(i));
  return Promise.all(children.map((child) => child.next()));
}

describe('several processes writing one thread', () => {
  it('exactly one wins each step, the others get CHECKPOINT_CONFLICT, and nothing stored is lost', async () => {
    const { connectionString } = server;
    const schema = 'race';
    await new PostgresCheckpointStore({ connectionString, schema }).migrate();
    const children = Array.from({ length: WRITERS }, (_, i) =>
      spawnChild(new URL('./test-support/race-child.ts', import.meta.url), [
        connectionString,
        schema,
        'shared',
        `w${i}`,
      ]),
    );
    expect(await all(children)).toEqual(children.map(() => 'ready'));
    const winners: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      // Every writer reads the same head, then all of them save on top of it at once.
      expect(await all(children, () => 'load')).toEqual(children.map(() => `loaded ${round - 1}`));
      const answers = await all(children, () => `save ${round}`);
      const won = answers.filter((a) => a.startsWith('won '));
      expect(won, answers.join(', ')).toHaveLength(1);
      expect(answers.filter((a) => a === 'conflict CHECKPOINT_CONFLICT')).toHaveLength(WRITERS - 1);
      winners.push(won[0]!.slice('won '.length));
    }
    for (const child of children) child.send('exit');
    for (const exit of await Promise.all(children.map((c) => c.exited)))
      expect(exit, exit.stderr).toMatchObject({ code: 0, signal: null });

    const store = new PostgresCheckpointStore({ connectionString, schema });
    const checkpoints = await store.list('shared');
    expect(checkpoints.map((c) => c.id)).toEqual(winners);
    expect(checkpoints.map((c) => c.sequence)).toEqual(winners.map((_, i) => i + 1));
    // Every winner's two messages, once each, in the order the rounds were won.
    const loaded = (await store.load('shared'))!;
    expect(loaded.conversation.messages.map((m) => m.content)).toEqual(
      winners.flatMap((id) => {
        const [writer, round] = id.split(':');
        return [`${writer} asks in round ${round}`, `${writer} answers in round ${round}`];
      }),
    );
    expect(await store.listThreads()).toMatchObject([
      { threadId: 'shared', checkpoints: ROUNDS, lastCheckpointId: winners.at(-1) },
    ]);
    // Each earlier checkpoint still loads with exactly the messages it covered.
    const middle = (await store.load('shared', winners[9]))!;
    expect(middle.conversation.messages).toEqual(loaded.conversation.messages.slice(0, 20));
    await store.close();
  }, 120_000);

  it('engines in several processes resuming one paused thread: one completes, the rest are refused', async () => {
    const { connectionString } = server;
    const schema = 'resume';
    const store = new PostgresCheckpointStore({ connectionString, schema });
    const first = await askEngine(store).run('ask', { threadId: 'paused' });
    expect(first.result.status).toBe('PAUSED');
    const before = (await store.list('paused')).length;
    const answers = ['ada', 'grace', 'alan', 'edsger'];
    const children = answers.map((answer) =>
      spawnChild(new URL('./test-support/resume-child.ts', import.meta.url), [
        connectionString,
        schema,
        'paused',
        answer,
      ]),
    );
    expect(await all(children)).toEqual(children.map(() => 'ready'));
    const outcomes = await all(children, () => 'go');
    for (const exit of await Promise.all(children.map((c) => c.exited)))
      expect(exit, exit.stderr).toMatchObject({ code: 0, signal: null });
    const done = outcomes.filter((o) => o.startsWith('done COMPLETED '));
    expect(done, outcomes.join(', ')).toHaveLength(1);
    expect(
      outcomes.filter((o) => o === 'refused RESUME_CONFLICT'),
      outcomes.join(', '),
    ).toHaveLength(3);
    const winner = answers[outcomes.indexOf(done[0]!)]!;
    expect(JSON.parse(done[0]!.slice('done COMPLETED '.length))).toEqual({
      n: 3,
      answer: winner,
    });
    // The stored thread is the winner's run, every message once; nothing of the losers.
    const loaded = (await store.load('paused'))!;
    expect(loaded.state.status).toBe('COMPLETED');
    const contents = loaded.conversation.messages.map((m) => contentText(m.content));
    expect(contents.slice(-4)).toEqual([
      winner,
      `${winner} one`,
      `${winner} two`,
      `${winner} three`,
    ]);
    for (const loser of answers.filter((a) => a !== winner))
      expect(contents.some((c) => c.includes(loser))).toBe(false);
    expect((await store.list('paused')).length).toBeGreaterThan(before);
    await store.close();
  }, 120_000);

  it('racing for the lease of a free thread: exactly one process gets it, every time', async () => {
    const { connectionString } = server;
    const schema = 'lease_race';
    const setup = new PostgresCheckpointStore({ connectionString, schema });
    await setup.migrate();
    await setup.close();
    const owners = ['p1', 'p2', 'p3', 'p4'];
    const children = owners.map((owner) =>
      spawnChild(new URL('./lease-child.ts', import.meta.url), [connectionString, schema, owner]),
    );
    expect(await all(children)).toEqual(children.map(() => 'ready'));
    const winners: string[] = [];
    for (let round = 0; round < 20; round++) {
      const answers = await all(children, () => `acquire race-${round} 1000 0`);
      expect(
        answers.filter((a) => a === 'acquired true'),
        answers.join(', '),
      ).toHaveLength(1);
      expect(answers.filter((a) => a === 'acquired false')).toHaveLength(owners.length - 1);
      winners.push(owners[answers.indexOf('acquired true')]!);
    }
    for (const child of children) child.send('exit');
    for (const exit of await Promise.all(children.map((c) => c.exited)))
      expect(exit, exit.stderr).toMatchObject({ code: 0, signal: null });
    // The database agrees with what each process was told.
    const pool = new pg.Pool({ connectionString });
    const { rows } = await pool.query<{ thread_id: string; owner: string }>(
      'SELECT thread_id, owner FROM lease_race.leases',
    );
    await pool.end();
    expect(Object.fromEntries(rows.map((row) => [row.thread_id, row.owner]))).toEqual(
      Object.fromEntries(winners.map((owner, round) => [`race-${round}`, owner])),
    );
  }, 120_000);

  it('a process whose expired lease another process took is refused with THREAD_LEASED', async () => {
    const { connectionString } = server;
    const schema = 'lease_fence';
    const setup = new PostgresCheckpointStore({ connectionString, schema });
    await setup.migrate();
    await setup.close();
    const [first, second] = ['first', 'second'].map((owner) =>
      spawnChild(new URL('./lease-child.ts', import.meta.url), [connectionString, schema, owner]),
    ) as [Child, Child];
    expect(await all([first, second])).toEqual(['ready', 'ready']);
    const say = async (child: Child, line: string) => {
      child.send(line);
      return child.next();
    };
    expect(await say(first, 'acquire t 1000 0')).toBe('acquired true');
    expect(await say(first, 'save t')).toBe('saved t:1');
    // At 1,000 the first process's lease has expired (it could not renew it): the second takes it.
    expect(await say(second, 'acquire t 2000 1000')).toBe('acquired true');
    expect(await say(first, 'acquire t 3000 1500')).toBe('acquired false');
    expect(await say(first, 'save t')).toBe('refused THREAD_LEASED');
    expect(await say(second, 'save t')).toBe('saved t:2');
    for (const child of [first, second]) child.send('exit');
    for (const exit of await Promise.all([first.exited, second.exited]))
      expect(exit, exit.stderr).toMatchObject({ code: 0, signal: null });

    const store = new PostgresCheckpointStore({ connectionString, schema });
    const loaded = (await store.load('t'))!;
    expect(loaded.checkpoint).toMatchObject({ id: 't:2', sequence: 2 });
    expect(loaded.conversation.messages.map((m) => m.content)).toEqual([
      'first saves 1',
      'second saves 2',
    ]);
    await store.close();
  }, 120_000);
});
