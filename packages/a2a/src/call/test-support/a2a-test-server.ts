import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AgentCard, formatSSEErrorEvent, formatSSEEvent, SSE_HEADERS } from '@a2a-js/sdk';
import {
  type AgentExecutor,
  DefaultRequestHandler,
  defaultServerCallContextBuilder,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  UnauthenticatedUser,
} from '@a2a-js/sdk/server';

/** One JSON-RPC request the server received. */
interface ReceivedCall {
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly headers: IncomingMessage['headers'];
  /** Resolves once the answer has been written. */
  readonly answered: Promise<void>;
}

export interface A2ATestServer {
  /** The base URL: the card is at `<url>/.well-known/agent-card.json`. */
  readonly url: string;
  readonly card: AgentCard;
  /** Every JSON-RPC request, in arrival order. */
  readonly calls: ReceivedCall[];
  /** Requests for the card, with their headers. */
  readonly cardRequests: IncomingMessage['headers'][];
  /** The first `method` call received, now or later. */
  waitForCall(method: string): Promise<ReceivedCall>;
  close(): Promise<void>;
}

export interface A2ATestServerOptions {
  readonly executor: AgentExecutor;
  readonly name?: string;
  readonly description?: string;
  readonly skills?: readonly { id: string; name: string; description: string }[];
  /** Served instead of the real card, to test what a client makes of a bad one. */
  readonly cardBody?: string;
}

function agentCard(url: string, options: A2ATestServerOptions): AgentCard {
  return {
    name: options.name ?? 'Test Agent',
    description: options.description ?? 'Answers scripted turns.',
    supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: (options.skills ?? []).map((skill) => ({
      ...skill,
      tags: [],
      examples: [],
      inputModes: [],
      outputModes: [],
      securityRequirements: [],
    })),
    signatures: [],
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The SDK's own JSON-RPC transport handler served by `node:http`, as its Express middleware
 * does it: POST `/` with a JSON-RPC body answers JSON, or Server-Sent Events for a streaming
 * method; GET `/.well-known/agent-card.json` answers the card.
 */
async function serveRpc(
  transport: JsonRpcTransportHandler,
  req: IncomingMessage,
  res: ServerResponse,
  record: (call: ReceivedCall) => void,
): Promise<void> {
  const text = await readBody(req);
  let body: Record<string, unknown> | string = text;
  let done = () => {};
  const answered = new Promise<void>((resolve) => {
    done = resolve;
  });
  res.on('finish', done);
  try {
    body = JSON.parse(text) as Record<string, unknown>;
    record({
      method: String(body.method),
      params: (body.params ?? {}) as Record<string, unknown>,
      headers: req.headers,
      answered,
    });
  } catch {
    // Not JSON: the transport handler answers with a parse error.
  }
  const context = defaultServerCallContextBuilder({
    extensions: undefined,
    user: new UnauthenticatedUser(),
    headers: req.headers,
    requestedVersion: firstHeader(req.headers['a2a-version']),
  });
  const answer = await transport.handle(body, context);
  if (Symbol.asyncIterator in answer) {
    res.writeHead(200, SSE_HEADERS);
    try {
      for await (const event of answer) res.write(formatSSEEvent(event));
    } catch (error) {
      res.write(
        formatSSEErrorEvent({
          jsonrpc: '2.0',
          id: typeof body === 'object' ? (body.id ?? null) : null,
          error: JsonRpcTransportHandler.mapToJSONRPCError(error),
        }),
      );
    }
    res.end();
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(answer));
}

/** A real A2A agent on 127.0.0.1, built from the SDK's server pieces around `executor`. */
export async function startA2ATestServer(options: A2ATestServerOptions): Promise<A2ATestServer> {
  const calls: ReceivedCall[] = [];
  const waiters: { method: string; resolve: (call: ReceivedCall) => void }[] = [];
  const record = (call: ReceivedCall) => {
    calls.push(call);
    for (const waiter of waiters.filter((w) => w.method === call.method)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(call);
    }
  };
  const cardRequests: IncomingMessage['headers'][] = [];
  let card: AgentCard | undefined;
  let transport: JsonRpcTransportHandler | undefined;
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (req.method === 'GET' && path === '/.well-known/agent-card.json') {
      cardRequests.push(req.headers);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(options.cardBody ?? JSON.stringify(card));
      return;
    }
    if (req.method === 'POST' && path === '/') {
      serveRpc(transport!, req, res, record).catch((error: unknown) => {
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end(String(error));
      });
      return;
    }
    res.writeHead(404).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  card = agentCard(`${url}/`, options);
  transport = new JsonRpcTransportHandler(
    new DefaultRequestHandler(card, new InMemoryTaskStore(), options.executor),
  );
  return {
    url,
    card,
    calls,
    cardRequests,
    waitForCall(method) {
      const seen = calls.find((call) => call.method === method);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ method, resolve }));
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
