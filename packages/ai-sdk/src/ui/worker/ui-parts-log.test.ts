import { startTestPostgres, type TestPostgres } from '@skein/store-postgres/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UIPartsLog } from './ui-parts-log.js';

let postgres: TestPostgres;
let pool: pg.Pool;

beforeAll(async () => {
  postgres = await startTestPostgres();
  pool = new pg.Pool({ connectionString: postgres.connectionString, max: 2 });
}, 60_000);

afterAll(async () => {
  await pool?.end();
  await postgres?.stop();
});

describe('UIPartsLog', () => {
  it('moves the runs of a database made with one run per thread, and migrates again as a no-op', async () => {
    await pool.query(`create schema old_log;
      create table old_log.ui_stream_runs (thread_id text primary key, run_id text not null,
        ended boolean not null default false, principal text);
      create table old_log.ui_stream_parts (run_id text not null, seq integer not null, part json,
        primary key (run_id, seq));
      insert into old_log.ui_stream_runs values ('t1', 'r1', false, 'ada'), ('t2', 'r2', true, null);
      insert into old_log.ui_stream_parts values ('r1', 0, '{"type":"start"}')`);
    await new UIPartsLog(pool, 'old_log').migrate();
    const log = new UIPartsLog(pool, 'old_log');
    await log.migrate();
    expect(await log.current('t1')).toEqual({ runId: 'r1', principal: 'ada' });
    expect(await log.current('t2')).toBeUndefined();
    expect(await log.read('r1', 0)).toEqual([{ type: 'start' }]);
    const { rows } = await pool.query(`select to_regclass('old_log.ui_stream_runs') as old`);
    expect(rows[0].old).toBeNull();
  });

  it("a new run drops the parts of the thread's runs that ended, never of one that goes on", async () => {
    const log = new UIPartsLog(pool, 'runs_log');
    await log.begin('t', 'ended', undefined);
    await log.append('t', 'ended', 0, [{ type: 'start' }, null]);
    await log.begin('t', 'first', 'ada');
    await log.append('t', 'first', 0, [{ type: 'start' }]);
    await log.begin('t', 'second', 'ada');
    await log.append('t', 'second', 0, [{ type: 'start' }]);
    expect(await log.read('ended', 0)).toEqual([]);
    expect(await log.read('first', 0)).toEqual([{ type: 'start' }]);
    // The run now is the oldest that has not ended; once it ends, the next.
    expect(await log.current('t')).toEqual({ runId: 'first', principal: 'ada' });
    await log.append('t', 'first', 1, [null]);
    expect(await log.current('t')).toEqual({ runId: 'second', principal: 'ada' });
    await log.begin('t', 'third', 'ada');
    expect(await log.read('first', 0)).toEqual([]);
    expect(await log.read('second', 0)).toEqual([{ type: 'start' }]);
  });
});
