import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createRateBudget,
  PostgresRateBudget,
  WorkerClosedError,
  WorkerOptionError,
} from './index.js';
import { startPostgres, type TestPostgres } from './test-support/start-postgres.js';

/** What the database told each draw of a request (budget name, milliseconds to wait), in order. */
const told: { name: string; wait: number }[] = [];
let onTold: () => void = () => {};

let server: TestPostgres;
let pool: pg.Pool;
beforeAll(async () => {
  server = await startPostgres();
  pool = new pg.Pool({ connectionString: server.connectionString, max: 4 });
  // The server stops after the pool ends; a connection still closing must not crash the run.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  // Every budget draws through a pg Pool (its own or the one given): note each answer of the
  // draw function to a request (p_force false), before the budget acts on it.
  const query = pg.Pool.prototype.query as (this: pg.Pool, ...args: unknown[]) => unknown;
  vi.spyOn(pg.Pool.prototype, 'query').mockImplementation(function (
    this: pg.Pool,
    ...args: unknown[]
  ) {
    const result = query.apply(this, args);
    const [text, values] = args;
    if (
      typeof text === 'string' &&
      text.includes('draw_rate_budget(') &&
      Array.isArray(values) &&
      values[7] === false &&
      result instanceof Promise
    )
      result.then(
        ({ rows }: pg.QueryResult<{ wait: number }>) => {
          told.push({ name: String(values[0]), wait: Number(rows[0]?.wait) });
          onTold();
        },
        () => {},
      );
    return result;
  } as unknown as typeof pg.Pool.prototype.query);
}, 60_000);
afterAll(async () => {
  vi.restoreAllMocks();
  await pool?.end();
  await server?.stop();
});

/** The budget's row as the database holds it. */
async function rowOf(name: string): Promise<{ requests: number | null; tokens: number | null }> {
  const { rows } = await pool.query(
    'select requests, tokens from skein_worker.rate_budgets where name = $1',
    [name],
  );
  return rows[0];
}

/**
 * Call at once after asking `promise` of budget `name`: resolves once `draws` of the budget's
 * draws from then on have had the database's answer, with the waits they were told and whether
 * `promise` had settled by then. A question about order, not time: the answer is in, and the
 * budget has acted on it (its callbacks ran before the check).
 */
async function afterDraws(
  name: string,
  promise: Promise<unknown>,
  draws = 1,
): Promise<{ waits: number[]; settled: boolean }> {
  let settled = false;
  promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  const start = told.length;
  const answers = () => told.slice(start).filter((draw) => draw.name === name);
  while (answers().length < draws)
    await new Promise<void>((resolve) => {
      onTold = resolve;
    });
  await new Promise((resolve) => setImmediate(resolve));
  return { waits: answers().map((draw) => draw.wait), settled };
}

describe('PostgresRateBudget', () => {
  it('takes a burst at once, then makes the next request wait for the refill', async () => {
    // 6 rpm with a 10 s burst: one request at once, the next one 10 s later.
    const budget = createRateBudget({ pool, name: 'burst', rpm: 6 });
    try {
      await budget.acquire(0);
      expect((await rowOf('burst')).requests).toBeLessThan(0.1);
      const second = budget.acquire(0);
      // The database says to wait (seconds), and the request waits.
      const { waits, settled } = await afterDraws('burst', second);
      expect(waits[0]).toBeGreaterThan(0);
      expect(settled).toBe(false);
      await budget.close();
      await expect(second).rejects.toBeInstanceOf(WorkerClosedError);
    } finally {
      await budget.close();
    }
  });

  it('shares one budget between two separately connected instances (as two processes)', async () => {
    // 6 rpm with a 30 s burst: three requests at once, then one every 10 s.
    const options = {
      connectionString: server.connectionString,
      name: 'shared',
      rpm: 6,
      burstSeconds: 30,
    };
    const a = new PostgresRateBudget(options);
    const b = new PostgresRateBudget(options);
    try {
      await Promise.all([a.acquire(0), b.acquire(0), a.acquire(0)]);
      expect((await rowOf('shared')).requests).toBeLessThan(1);
      // A fourth from either instance waits for the refill, several seconds away.
      const fourth = b.acquire(0);
      const fifth = a.acquire(0);
      const { waits, settled } = await afterDraws('shared', Promise.race([fourth, fifth]), 2);
      expect(waits.every((wait) => wait > 0)).toBe(true);
      expect(settled).toBe(false);
      await Promise.all([a.close(), b.close()]);
      await expect(fourth).rejects.toBeInstanceOf(WorkerClosedError);
      await expect(fifth).rejects.toBeInstanceOf(WorkerClosedError);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('holds the token budget and settles estimates against real usage', async () => {
    // 600 tokens a minute, 60 at once (6 s burst).
    const budget = createRateBudget({ pool, name: 'tokens', tpm: 600, burstSeconds: 6 });
    try {
      await budget.acquire(50);
      const level = (await rowOf('tokens')).tokens!;
      expect(level).toBeGreaterThan(9);
      expect(level).toBeLessThan(11);
      // The request used 20 tokens, not 50: 30 come back.
      await budget.settle(50, 20);
      expect((await rowOf('tokens')).tokens).toBeGreaterThan(39);
      // It used 90 more than estimated: the bucket goes into debt and the next request waits.
      await budget.settle(0, 90);
      expect((await rowOf('tokens')).tokens).toBeLessThan(0);
      const next = budget.acquire(10);
      const { waits, settled } = await afterDraws('tokens', next);
      expect(waits[0]).toBeGreaterThan(0);
      expect(settled).toBe(false);
      await budget.close();
      await expect(next).rejects.toBeInstanceOf(WorkerClosedError);
      // No request budget was asked for: that column stays empty.
      expect((await rowOf('tokens')).requests).toBeNull();
    } finally {
      await budget.close();
    }
  });

  it('pauses every instance after a 429 until the retry-after has passed, never shortening a pause', async () => {
    const options = { connectionString: server.connectionString, name: 'paused', rpm: 60_000 };
    const a = new PostgresRateBudget(options);
    const b = new PostgresRateBudget(options);
    try {
      const pausedUntil = async () =>
        (
          await pool.query<{ until: string }>(
            `select paused_until::text as until from skein_worker.rate_budgets where name = 'paused'`,
          )
        ).rows[0]!.until;
      await a.acquire(0);
      await a.pauseFor(3_000);
      const until = await pausedUntil();
      // A shorter pause asked for later leaves the longer one exactly as it was (compared as
      // stored, not as time left, which a loaded machine eats into).
      await b.pauseFor(10);
      expect(await pausedUntil()).toBe(until);
      // The other instance, with budget to spare, waits for the pause too.
      const waiting = b.acquire(0);
      const { waits, settled } = await afterDraws('paused', waiting);
      expect(waits[0]).toBeGreaterThan(0);
      expect(settled).toBe(false);
      await waiting;
      const after = await pool.query<{ over: boolean }>(
        `select paused_until <= clock_timestamp() as over from skein_worker.rate_budgets where name = 'paused'`,
      );
      expect(after.rows[0]!.over).toBe(true);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('stops waiting on abort, taking nothing, and lets the next waiter have its turn', async () => {
    const budget = createRateBudget({ pool, name: 'abort', rpm: 60, burstSeconds: 1 });
    try {
      await budget.acquire(0);
      const controller = new AbortController();
      const aborted = budget.acquire(0, controller.signal);
      const next = budget.acquire(0);
      controller.abort(new Error('stop waiting'));
      await expect(aborted).rejects.toThrow('stop waiting');
      // The next waiter gets the one request that refills in a second.
      await next;
      const already = new AbortController();
      already.abort(new Error('already aborted'));
      await expect(budget.acquire(0, already.signal)).rejects.toThrow('already aborted');
    } finally {
      await budget.close();
    }
  });

  it('refuses bad options before connecting, and use after close', async () => {
    expect(() => createRateBudget({ pool, name: '' })).toThrow(WorkerOptionError);
    expect(() => createRateBudget({ pool, name: 'x', rpm: 0 })).toThrow(WorkerOptionError);
    expect(() => createRateBudget({ pool, name: 'x', tpm: Number.NaN })).toThrow(/tpm/);
    expect(() => createRateBudget({ pool, name: 'x', rpm: 1, burstSeconds: -1 })).toThrow(
      /burstSeconds/,
    );
    expect(() => createRateBudget({ connectionString: '', name: 'x' })).toThrow(/connectionString/);
    expect(() => createRateBudget({ pool, name: 'x', schema: 'Bad-Name' })).toThrow(/schema/);
    const budget = createRateBudget({
      connectionString: server.connectionString,
      name: 'closed',
      rpm: 60,
    });
    await budget.close();
    await budget.close();
    await expect(budget.acquire(1)).rejects.toBeInstanceOf(WorkerClosedError);
    await expect(budget.pauseFor(10)).rejects.toBeInstanceOf(WorkerClosedError);
    // The caller's pool is the caller's: it still works.
    expect((await pool.query('select 1 as one')).rows[0].one).toBe(1);
  });
});
