// The fixture server over stdio, run by the tests as a child process:
//   node mcp-stdio-server.mjs [fillerTools] [pageSize]
// The `crash` tool exits the process mid-call.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createFixtureServer } from './mcp-fixture-server.mjs';

const fillerTools = Number(process.argv[2] ?? 0);
const pageSize = Number(process.argv[3] ?? 0);
const { mcp } = createFixtureServer({
  name: 'fixture-stdio',
  fillerTools,
  pageSize,
  onCrash: () => process.exit(3),
});
await mcp.connect(new StdioServerTransport());
