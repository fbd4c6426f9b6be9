import { Logger, type LogLevel } from 'graphile-worker';
import pg from 'pg';
import { WorkerOptionError } from './errors/worker-option-error.js';
import { isSetAside } from './queue-jobs.js';
import { isPlainIdentifier } from './sql-names.js';

/** Where the queue lives: a connection string, or a `pg.Pool` you own (never closed for you). */
export type ConnectionOptions =
  | { readonly connectionString: string; readonly pool?: undefined }
  | { readonly pool: pg.Pool; readonly connectionString?: undefined };

export interface QueueOptions {
  /** Schema of the worker's own tables (threads, cancellations, applied resumes). Default `skein_worker`. */
  readonly schema?: string;
  /** Schema graphile-worker keeps its queue in. Default `graphile_worker`. */
  readonly graphileSchema?: string;
  /** How often a job is retried after the worker running it fails outright (not a FAILED thread). Default 25. */
  readonly maxAttempts?: number;
  /** Where warnings and errors of the queue go. Default: `console.warn` for `warning` and `error`. */
  readonly log?: (level: 'error' | 'warning' | 'info' | 'debug', message: string) => void;
}

/** Options checked once, with what every part needs resolved. */
export interface ResolvedQueue {
  readonly pool: pg.Pool;
  readonly ownsPool: boolean;
  /** What a dedicated LISTEN connection connects with. */
  readonly clientConfig: pg.ClientConfig;
  readonly schema: string;
  readonly graphileSchema: string;
  readonly maxAttempts: number;
  readonly logger: Logger;
  readonly log: (level: 'error' | 'warning' | 'info' | 'debug', message: string) => void;
}

function schemaName(option: string, value: string | undefined, fallback: string): string {
  const name = value ?? fallback;
  if (!isPlainIdentifier(name))
    throw new WorkerOptionError(
      option,
      value,
      'a lower-case SQL identifier: a letter or _, then letters, digits or _ (at most 63)',
    );
  return name;
}

const defaultLog = (level: string, message: string): void => {
  if (level === 'error' || level === 'warning') console.warn(`[skein-worker] ${level}: ${message}`);
};

/** Checks the options and opens (or adopts) the pool; bad options throw before any connection. */
export function resolveQueue(
  options: ConnectionOptions & QueueOptions,
  poolSize: number,
): ResolvedQueue {
  const schema = schemaName('schema', options.schema, 'skein_worker');
  const graphileSchema = schemaName('graphileSchema', options.graphileSchema, 'graphile_worker');
  const maxAttempts = options.maxAttempts ?? 25;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 32_767)
    throw new WorkerOptionError('maxAttempts', options.maxAttempts, 'an integer from 1 to 32767');
  const log = options.log ?? defaultLog;
  // A job the task put back itself is no failure, whatever graphile-worker calls it.
  const logger = new Logger(
    () => (level: LogLevel, message: string, meta?: { error?: unknown }) =>
      log(isSetAside(meta?.error) ? 'debug' : level, message),
  );
  if (options.pool) {
    const clientConfig = (options.pool as unknown as { options: pg.ClientConfig }).options;
    return {
      pool: options.pool,
      ownsPool: false,
      clientConfig,
      schema,
      graphileSchema,
      maxAttempts,
      logger,
      log,
    };
  }
  if (typeof options.connectionString !== 'string' || options.connectionString === '')
    throw new WorkerOptionError(
      'connectionString',
      options.connectionString,
      'a PostgreSQL connection string, or a `pool`',
    );
  const clientConfig = { connectionString: options.connectionString };
  const pool = new pg.Pool({ ...clientConfig, max: poolSize });
  // An idle connection dropped by the server must not crash the process; the next query reconnects.
  pool.on('error', (error) => log('warning', `idle connection failed: ${error.message}`));
  pool.on('connect', (client) => {
    client.on('error', (error) => log('warning', `connection failed: ${error.message}`));
  });
  return {
    pool,
    ownsPool: true,
    clientConfig,
    schema,
    graphileSchema,
    maxAttempts,
    logger,
    log,
  };
}
