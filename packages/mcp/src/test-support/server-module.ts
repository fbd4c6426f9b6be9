// The workflow module the stdio tests give `skein-mcp`: the test workflows, with their threads in
// the SQLite file named by SKEIN_MCP_TEST_DB (in memory without it). When SKEIN_MCP_TEST_CLOSED
// names a file, `close` writes there the statuses of the stored threads as it found them: the
// shutdown tests see from it that `close` ran, and that it ran after the threads had stopped.
// With SKEIN_MCP_TEST_CLOSE_HANGS set, `close` then never ends (a module stuck closing).

import { writeFileSync } from 'node:fs';
import { SqliteCheckpointStore } from '@skein/store-sqlite';
import type { McpModuleConfig } from '../cli/server-module.js';
import { testEngine } from './workflows.js';

export default function serverModule(): McpModuleConfig {
  const filename = process.env.SKEIN_MCP_TEST_DB;
  const closedMarker = process.env.SKEIN_MCP_TEST_CLOSED;
  const store = filename ? new SqliteCheckpointStore({ filename }) : undefined;
  // Something a careless module prints: it must not reach the protocol on stdout.
  console.log('test module loaded');
  return {
    engine: testEngine(store ? { store } : {}),
    name: 'stdio-test',
    version: '2.0.0',
    // What a module publishes beside its workflows reaches the client as in code.
    publish: {
      resources: [
        {
          uri: 'test://module-note',
          name: 'module-note',
          read: () => ({ type: 'text', text: 'published by the module' }),
        },
      ],
    },
    close: async () => {
      const statuses = store ? (await store.listThreads()).map((t) => t.status) : [];
      store?.close();
      if (closedMarker) writeFileSync(closedMarker, JSON.stringify(statuses));
      if (process.env.SKEIN_MCP_TEST_CLOSE_HANGS) await new Promise<never>(() => {});
    },
  };
}
