import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CheckpointStore } from '@skein/core';
import { PostgresCheckpointStore } from '@skein/store-postgres';
import { SqliteCheckpointStore } from '@skein/store-sqlite';
import { AppError } from './app-error.js';

/** A store the app opened, and how to name it in messages (never with a password). */
export interface OpenedStore {
  readonly store: CheckpointStore & { close(): Promise<void> | void };
  readonly where: string;
}

export interface StoreChoice {
  /** SQLite file, used when `url` is not given. */
  readonly db: string;
  /** PostgreSQL connection string (`--store`): checkpoints go there instead of `db`. */
  readonly url?: string;
}

/** Where a connection string points, without its password. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = parsed.password ? '***' : '';
    return parsed.toString();
  } catch {
    return 'the given database';
  }
}

function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/**
 * Opens the checkpoint store the user chose: PostgreSQL when `--store` gives a URL (its schema
 * migrated on first use), otherwise the SQLite file. `create` false leaves a missing SQLite file
 * alone, so reading commands never make an empty database.
 */
export async function openStore(
  choice: StoreChoice,
  { create }: { create: boolean },
): Promise<OpenedStore | undefined> {
  if (choice.url !== undefined) {
    if (!isPostgresUrl(choice.url))
      throw new AppError(
        `--store takes a PostgreSQL URL (postgres://user:password@host:port/database), got "${shownUrl(choice.url)}"`,
        2,
      );
    const store = new PostgresCheckpointStore({ connectionString: choice.url });
    try {
      await store.migrate();
    } catch (error) {
      await store.close();
      throw new AppError(
        `Cannot use ${shownUrl(choice.url)}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return { store, where: shownUrl(choice.url) };
  }
  if (!existsSync(choice.db)) {
    if (!create) return undefined;
    mkdirSync(dirname(choice.db), { recursive: true });
  }
  return {
    store: new SqliteCheckpointStore({ filename: choice.db, synchronous: 'normal' }),
    where: choice.db,
  };
}
