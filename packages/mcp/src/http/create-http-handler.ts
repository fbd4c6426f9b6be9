import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { SkeinEngine } from '@skein/core';
import {
  allowedHosts,
  guardRequest,
  HttpRequestError,
  readJsonBody,
  requestUrl,
} from '@skein/http';
import { SkeinMcpServer } from '../server/skein-mcp-server.js';
import { WorkflowService } from '../server/workflow-service.js';
import { newThreadId } from '../threads/thread-id.js';
import { type McpHttpOptions, resolveHttpOptions } from './http-options.js';
import { refuse } from './refuse.js';
import { type Session, SessionTable } from './session-table.js';

/** A Node `(request, response)` handler serving MCP's Streamable HTTP transport. */
export interface McpHttpHandler {
  (request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** Closes every session, cancelling the threads their calls run, and resolves once those stopped. */
  close(): Promise<void>;
}

const METHODS = ['GET', 'POST', 'DELETE'];

/**
 * Serves `engine`'s workflows over Streamable HTTP, one MCP session per client (each its own
 * `SkeinMcpServer`; threads are shared, so one started in a session can be resumed in another).
 * Before the MCP transport sees a request it checks, in this order: the `Host` (421 unless a
 * loopback name or an allowed host, with the port the request came in on), the origin of every
 * method (403 for a browser request from another origin), the path and method, and the body
 * (413, 415, 400); the Host, origin and body checks are `@skein/http`'s.
 * Mount it on any Node HTTP server; `listenMcpHttp` starts one on 127.0.0.1.
 */
export function createMcpHttpHandler(engine: SkeinEngine, options: McpHttpOptions): McpHttpHandler {
  const service = new WorkflowService(engine, options);
  const http = resolveHttpOptions(options);
  const sessions = new SessionTable();
  const hostsByPort = new Map<number, Set<string>>();
  const hostsFor = (port: number) => {
    let hosts = hostsByPort.get(port);
    if (hosts === undefined) {
      hosts = allowedHosts(port, { extra: http.allowedHosts });
      hostsByPort.set(port, hosts);
    }
    return hosts;
  };

  async function open(request: IncomingMessage, response: ServerResponse, body: unknown) {
    if (sessions.size >= http.maxSessions)
      throw new HttpRequestError(
        'TOO_MANY_SESSIONS',
        `${http.maxSessions} sessions are open, the most this server keeps; close one (DELETE) and try again`,
        { limit: http.maxSessions },
      );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: newThreadId });
    const session: Session = { server: new SkeinMcpServer(service), transport };
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
      // Every method counts for the origin: a GET opens the server's event stream.
      guardRequest(request, hostsFor(request.socket.localPort ?? 0), { writesOnly: false });
      const path = requestUrl(request).pathname;
      if (path !== http.path) throw HttpRequestError.routeNotFound(path);
      const method = request.method ?? '';
      if (!METHODS.includes(method)) throw HttpRequestError.methodNotAllowed(method, METHODS);
      const body = method === 'POST' ? await readJsonBody(request, http.maxBodyBytes) : undefined;
      if (method === 'POST' && body === undefined)
        throw HttpRequestError.invalidBody('is empty: a POST carries a JSON-RPC message');
      const sessionId = request.headers['mcp-session-id'];
      if (typeof sessionId === 'string') {
        const session = sessions.get(sessionId);
        if (session === undefined)
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
      await open(request, response, body);
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
