import { PostgresCheckpointStore } from '@skein/store-postgres';
import type { InspectorStore, StoreOpener } from './inspector-store.js';

/** A PostgreSQL URL (`postgres://…`); `?schema=name` picks the store's schema (default `skein`). */
export const postgresOpener: StoreOpener = {
  describes: 'a PostgreSQL URL (postgres://user@host/db[?schema=skein])',
  matches: (location) => /^postgres(?:ql)?:\/\//i.test(location),
  open: async (location) => {
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
