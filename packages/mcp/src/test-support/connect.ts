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

/**
 * What reached the client while `call` ran, in the order it arrived, before the SDK handled it:
 * each progress notification as `progress <message>`, each response as `response`.
 *
 * The SDK client (1.x) handles a notification a microtask after it arrives but a response at once,
 * and forgets a request's progress token with its response: progress that arrives in the same read
 * as the response (a pipe or a stream under load) never reaches `onprogress` (SDK issue #2580).
 * A server cannot prevent that; what it owes is every notification written before the response,
 * which is what this shows.
 */
export async function arrivals<T>(
  client: Client,
  call: () => Promise<T>,
): Promise<{ result: T; arrived: string[] }> {
  const transport = client.transport;
  const handle = transport?.onmessage;
  if (!transport || !handle) throw new Error('connect the client first');
  const arrived: string[] = [];
  transport.onmessage = (message, extra) => {
    if ('method' in message && message.method === 'notifications/progress')
      arrived.push(`progress ${String(message.params?.message)}`);
    else if (!('method' in message)) arrived.push('response');
    handle.call(transport, message, extra);
  };
  try {
    return { result: await call(), arrived };
  } finally {
    transport.onmessage = handle;
  }
}
