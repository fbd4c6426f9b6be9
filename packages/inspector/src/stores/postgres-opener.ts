import { storePackageMissing } from '../errors/store-errors.js';
import type { InspectorStore, StoreOpener } from './inspector-store.js';

/** The PostgreSQL store, loaded on first use: an optional peer, installed only by apps that use it. */
async function loadStore(location: string) {
  try {
    return await import('@skein/store-postgres');
  } catch (error) {
    const missing =
      (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' ||
      (error as { code?: unknown }).code === 'MODULE_NOT_FOUND';
    throw missing ? storePackageMissing(location, '@skein/store-postgres', error) : error;
  }
}

/** A PostgreSQL URL (`postgres://…`); `?schema=name` picks the store's schema (default `skein`). */
export const postgresOpener: StoreOpener = {
  describes: 'a PostgreSQL URL (postgres://user@host/db[?schema=skein])',
  matches: (location) => /^postgres(?:ql)?:\/\//i.test(location),
  open: async (location) => {
    const { PostgresCheckpointStore } = await loadStore(location);
    const url = new URL(location);
    const schema = url.searchParams.get('schema') ?? undefined;
    url.searchParams.delete('schema');
    const store = new PostgresCheckpointStore({
      connectionString: url.toString(),
      ...(schema === undefined ? {} : { schema }),
    });
    // Fails here (not at the first request) when the server cannot be reached.
    await store.listThreads();
    return { store: store as unknown as InspectorStore, close: () => store.close() };
  },
};
