import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';

export interface ClientOptions {
  /** Answers the server's elicitations; without it the client says it cannot elicit. */
  readonly elicit?: (message: string) => ElicitResult | Promise<ElicitResult>;
}

/** An SDK client, able to answer elicitations when `options.elicit` is given. */
export function testClient(options: ClientOptions = {}): Client {
  const client = new Client(
    { name: 'skein-mcp-test', version: '1.0.0' },
    options.elicit ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  const { elicit } = options;
  if (elicit)
    client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params.message));
  return client;
}

/** A client connected to `server` through an in-memory pair. */
export async function connectInMemory(
  server: McpServer,
  options: ClientOptions = {},
): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = testClient(options);
  await client.connect(clientSide);
  return client;
}
