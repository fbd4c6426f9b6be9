import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

/**
 * The CPU time a local PostgreSQL server has used so far, in ms: its postmaster's own and that of
 * every backend it has reaped (Linux `/proc`; a run's backends are counted once its store closed
 * them). The durable rows share the machine's cores with the server, so this says how much of a
 * run's wall time the server's work could have taken. Undefined where `/proc` cannot tell.
 */
export async function serverCpuReader(url: string): Promise<(() => Promise<number>) | undefined> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let directory: string;
  try {
    directory = (await client.query<{ data_directory: string }>('SHOW data_directory')).rows[0]!
      .data_directory;
  } finally {
    await client.end();
  }
  let pid: string;
  try {
    pid = readFileSync(join(directory, 'postmaster.pid'), 'utf8').split('\n')[0]!.trim();
    readFileSync(`/proc/${pid}/stat`);
  } catch {
    return undefined;
  }
  return async () => {
    // Backends end just after their connections close: give the postmaster time to reap them.
    await sleep(200);
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime, stime, cutime, cstime are fields 14-17 of stat(5); [0] here is field 3.
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
    return ticks * 10; // USER_HZ is 100 on Linux
  };
}
