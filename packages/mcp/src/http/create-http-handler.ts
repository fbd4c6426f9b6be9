import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { SkeinEngine } from '@skein/core';
import {
  authorizeRequest,
  guardRequest,
  HttpRequestError,
  hostsByPort,
  readJsonBody,
  requestUrl,
} from '@skein/http';
import { SkeinMcpServer } from '../server/skein-mcp-server.js';
import { WorkflowService } from '../server/workflow-service.js';
import { newThreadId } from '../threads/thread-id.js';
import { verifyBearer } from './bearer-auth.js';
import { type McpHttpOptions, resolveHttpOptions } from './http-options.js';
import { serveResourceMetadata } from './protected-resource.js';
import { refuse } from './refuse.js';
import { type Session, SessionTable } from './session-table.js';

/** A Node `(request, response)` handler serving MCP's Streamable HTTP transport. */
export interface McpHttpHandler {
  (request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** Closes every session, cancelling the threads their calls run, and resolves once those stopped. */
  close(): Promise<void>;
}

const METHODS = ['GET', 'POST', 'DELETE'];

/** Who sent a request: its principal, and the verified token it came with (bearer auth). */
interface Caller {
  readonly principal: string;
  readonly authInfo?: AuthInfo;
}

/** A Node request as the MCP SDK's transport reads a verified token from it (`req.auth`). */
type AuthenticatedRequest = IncomingMessage & { auth?: AuthInfo };

/**
 * Serves `engine`'s workflows over Streamable HTTP, one MCP session per client (each its own
 * `SkeinMcpServer`; threads are shared, so one started in a session can be resumed in another).
 * Before the MCP transport sees a request it checks, in this order: the `Host` (421 unless a
 * loopback name or an allowed host, with the port the request came in on), the origin of every
 * method (403 for a browser request from another origin), the path and method, and the body
 * (413, 415, 400); the Host, origin and body checks are `@skein/http`'s. With `bearerAuth` or
 * `authorize`, each request names its caller before its body is read (401, 403): a session is
 * its opener's, and the threads a caller starts are the caller's alone.
 * Mount it on any Node HTTP server; `listenMcpHttp` starts one on 127.0.0.1.
 */
export function createMcpHttpHandler(engine: SkeinEngine, options: McpHttpOptions): McpHttpHandler {
  const service = new WorkflowService(engine, options);
  const http = resolveHttpOptions(options);
  const sessions = new SessionTable();
  const hostsFor = hostsByPort(http.allowedHosts);

  /** The caller of a request, or its refusal (401, 403); undefined when the server has no auth. */
  async function callerOf(request: IncomingMessage): Promise<Caller | undefined> {
    const { auth } = http;
    if (auth.kind === 'authorize')
      return { principal: await authorizeRequest(auth.authorize, request) };
    if (auth.kind === 'none') return undefined;
    return verifyBearer(request, auth.bearer, (info) => service.principalOf(info));
  }

  async function open(
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
    principal: string | undefined,
  ) {
    if (sessions.size >= http.maxSessions)
      throw new HttpRequestError(
        'TOO_MANY_SESSIONS',
        `${http.maxSessions} sessions are open, the most this server keeps; close one (DELETE) and try again`,
        { limit: http.maxSessions },
      );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: newThreadId });
    const session: Session = {
      server: new SkeinMcpServer(service, principal),
      transport,
      principal,
    };
    sessions.starting(session);
    transport.onclose = () => sessions.delete(session);
    await session.server.connect(transport);
    try {
      await transport.handleRequest(request, response, body);
    } finally {
      sessions.started(session);
      if (transport.sessionId === undefined) await session.server.close();
    }
  }

  const handler = async (request: IncomingMessage, response: ServerResponse) => {
    try {
      const hosts = hostsFor(request.socket.localPort ?? 0);
      const path = requestUrl(request).pathname;
      const { auth } = http;
      if (auth.kind === 'bearer' && path === auth.bearer.metadataPath) {
        serveResourceMetadata(request, response, hosts, auth.bearer.metadata);
        return;
      }
      // Every method counts for the origin: a GET opens the server's event stream.
      guardRequest(request, hosts, {
        writesOnly: false,
        ...(http.allowedOrigins ? { allowedOrigins: http.allowedOrigins } : {}),
      });
      if (path !== http.path) throw HttpRequestError.routeNotFound(path);
      const method = request.method ?? '';
      if (!METHODS.includes(method)) throw HttpRequestError.methodNotAllowed(method, METHODS);
      // Named (or refused) before the body is read or a session looked up.
      const caller = await callerOf(request);
      if (caller?.authInfo) (request as AuthenticatedRequest).auth = caller.authInfo;
      const body = method === 'POST' ? await readJsonBody(request, http.maxBodyBytes) : undefined;
      if (method === 'POST' && body === undefined)
        throw HttpRequestError.invalidBody('is empty: a POST carries a JSON-RPC message');
      const sessionId = request.headers['mcp-session-id'];
      if (typeof sessionId === 'string') {
        const session = sessions.get(sessionId);
        // Another caller's session is none of this one's: the same answer as a closed one.
        if (session === undefined || session.principal !== caller?.principal)
          throw new HttpRequestError(
            'SESSION_NOT_FOUND',
            'No such session: it was closed; initialize a new one',
          );
        await session.transport.handleRequest(request, response, body);
        return;
      }
      if (method !== 'POST' || !isInitializeRequest(body))
        throw new HttpRequestError(
          'SESSION_REQUIRED',
          'No Mcp-Session-Id header: initialize a session first',
        );
      await open(request, response, body, caller?.principal);
    } catch (error) {
      refuse(response, error);
    }
  };
  return Object.assign(handler, {
    close: async () => {
      await Promise.all(sessions.all().map((s) => s.server.close()));
    },
  });
}
