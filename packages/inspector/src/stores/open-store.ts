import { unsupportedStore } from '../errors/store-errors.js';
import type { OpenedStore, StoreOpener } from './inspector-store.js';
import { postgresOpener } from './postgres-opener.js';
import { sqliteOpener } from './sqlite-opener.js';

// Adding a store is one file with a `StoreOpener` and one line here.
const OPENERS: readonly StoreOpener[] = [postgresOpener, sqliteOpener];

/** Opens the store `location` names with the first opener that recognises it. */
export async function openStore(location: string): Promise<OpenedStore> {
  const opener = OPENERS.find((o) => o.matches(location));
  if (opener === undefined)
    throw unsupportedStore(
      location,
      OPENERS.map((o) => o.describes),
    );
  return opener.open(location);
}
