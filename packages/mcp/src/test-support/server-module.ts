// The workflow module the stdio tests give `skein-mcp`: the test workflows, with their threads in
// the SQLite file named by SKEIN_MCP_TEST_DB (in memory without it).

import { SqliteCheckpointStore } from '@skein/store-sqlite';
import type { McpModuleConfig } from '../cli/server-module.js';
import { testEngine } from './workflows.js';

export default function serverModule(): McpModuleConfig {
  const filename = process.env.SKEIN_MCP_TEST_DB;
  const store = filename ? new SqliteCheckpointStore({ filename }) : undefined;
  // Something a careless module prints: it must not reach the protocol on stdout.
  console.log('test module loaded');
  return {
    engine: testEngine(store ? { store } : {}),
    name: 'stdio-test',
    version: '2.0.0',
    close: () => store?.close(),
  };
}
