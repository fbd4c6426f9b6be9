import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  createFixtureServer,
  type FixtureServer,
  type FixtureServerOptions,
} from '../__fixtures__/mcp-fixture-server.mjs';

export interface InMemoryMcp {
  readonly client: Client;
  readonly fixture: FixtureServer;
  close(): Promise<void>;
}

/** The fixture McpServer and a real Client, linked by the SDK's InMemoryTransport. */
export async function connectInMemory(options: FixtureServerOptions = {}): Promise<InMemoryMcp> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const fixture = createFixtureServer({
    ...options,
    // The server drops the connection while the `crash` call is in flight.
    onCrash: () => void serverTransport.close(),
  });
  const client = new Client({ name: 'skein-test', version: '1.0.0' });
  await fixture.mcp.connect(serverTransport);
  await client.connect(clientTransport);
  return {
    client,
    fixture,
    close: async () => {
      await client.close();
      await fixture.mcp.close();
    },
  };
}
