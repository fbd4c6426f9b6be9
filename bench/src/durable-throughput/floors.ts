import pg from 'pg';
import type { FloorDatabase } from './sqlite-drivers.js';

// What the database itself commits, measured in the same run as the stores: `rows` rows of about
// a checkpoint's size, once as one transaction each (the floor of one commit per checkpoint) and
// once in transactions of `batch` rows (the floor of group commit).

const BODY = JSON.stringify({ state: 'x'.repeat(600) });

/**
 * ms to commit `rows` rows one transaction each, and in transactions of `batch` rows, on SQLite
 * through `db` (either driver: the store's drivers, at the versions it uses), which is closed.
 */
export function sqliteFloor(
  db: FloorDatabase,
  rows: number,
  batch: number,
): { single: number; batched: number } {
  try {
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = FULL');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
    let started = performance.now();
    for (let i = 0; i < rows; i++) insert.run(BODY);
    const single = performance.now() - started;
    started = performance.now();
    for (let done = 0; done < rows; done += batch) {
      db.exec('BEGIN');
      for (let i = 0; i < Math.min(batch, rows - done); i++) insert.run(BODY);
      db.exec('COMMIT');
    }
    return { single, batched: performance.now() - started };
  } finally {
    db.close();
  }
}

/** The same on PostgreSQL: single-row INSERTs in autocommit, then multi-row INSERTs. */
export async function postgresFloor(
  connectionString: string,
  rows: number,
  batch: number,
): Promise<{ single: number; batched: number }> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(
      'CREATE TABLE floor_t (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, body text NOT NULL)',
    );
    let started = performance.now();
    for (let i = 0; i < rows; i++)
      await client.query({
        name: 'floor_one',
        text: 'INSERT INTO floor_t (body) VALUES ($1)',
        values: [BODY],
      });
    const single = performance.now() - started;
    started = performance.now();
    for (let done = 0; done < rows; done += batch) {
      const n = Math.min(batch, rows - done);
      await client.query({
        name: 'floor_many',
        text: 'INSERT INTO floor_t (body) SELECT unnest($1::text[])',
        values: [Array(n).fill(BODY)],
      });
    }
    return { single, batched: performance.now() - started };
  } finally {
    await client.query('DROP TABLE IF EXISTS floor_t').catch(() => {});
    await client.end();
  }
}
