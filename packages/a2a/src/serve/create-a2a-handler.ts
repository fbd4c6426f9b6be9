import type { IncomingMessage, ServerResponse } from 'node:http';
import { A2A_VERSION_HEADER, AGENT_CARD_PATH, formatSSEEvent, SSE_HEADERS } from '@a2a-js/sdk';
import { toJsonRpcError } from '@a2a-js/sdk/errors';
import {
  defaultServerCallContextBuilder,
  JsonRpcTransportHandler,
  validateVersion,
} from '@a2a-js/sdk/server';
import type { SkeinEngine } from '@skein/core';
import {
  authorizeRequest,
  guardRequest,
  HttpRequestError,
  hostsByPort,
  readJsonBody,
  requestUrl,
  sendError,
} from '@skein/http';
import { InvalidArgumentError } from '@skein/spec';
import { type A2AServerOptions, resolveA2AOptions } from './a2a-server-options.js';
import { setClientGone } from './caller.js';
import { envelopeProblem, INVALID_REQUEST, PARSE_ERROR, rpcError } from './json-rpc-envelope.js';
import { PushNotifications } from './push/push-notifications.js';
import { SkeinA2ARequestHandler } from './skein-request-handler.js';

/** A Node `(request, response)` handler serving a workflow as an A2A agent. */
export interface A2AHttpHandler {
  (request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** The A2A request handler beneath (for another transport, or a test). */
  readonly requestHandler: SkeinA2ARequestHandler;
}

type JsonRpcAnswer = Awaited<ReturnType<JsonRpcTransportHandler['handle']>>;

function streamOf(answer: JsonRpcAnswer): AsyncGenerator<unknown, void, undefined> | undefined {
  const stream = answer as AsyncGenerator<unknown, void, undefined>;
  return typeof stream[Symbol.asyncIterator] === 'function' ? stream : undefined;
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * Serves `engine`'s workflow as an A2A agent over JSON-RPC (A2A 1.0, `@a2a-js/sdk`'s transport
 * handler beneath `@skein/http`'s checks): the card at `/.well-known/agent-card.json`, the
 * methods at `path`. Before the transport sees a request: the Host (421), a cross-origin write
 * (403), the path and method (404, 405), the caller (`authorize`, 401) and the body (413, 415,
 * 400). Streams are Server-Sent Events; a client that goes away leaves its task running.
 */
export function createA2AHandler(engine: SkeinEngine, options: A2AServerOptions): A2AHttpHandler {
  const resolved = resolveA2AOptions(options);
  if (!engine.store)
    throw new InvalidArgumentError(
      'engine',
      'an A2A agent keeps its tasks in the engine’s store: give the engine a store',
    );
  if (!engine.workflows.has(resolved.workflowId))
    throw new InvalidArgumentError(
      'workflowId',
      `workflow ${resolved.workflowId} is not registered with the engine`,
    );
  const defaultUrl = resolved.url ?? `http://127.0.0.1${resolved.path}`;
  const requestHandler = new SkeinA2ARequestHandler(
    engine,
    resolved.workflowId,
    resolved.card,
    defaultUrl,
    resolved.pushNotifications && new PushNotifications(resolved.pushNotifications),
    resolved.follow,
  );
  const transport = new JsonRpcTransportHandler(requestHandler);
  const hostsFor = hostsByPort(resolved.allowedHosts);

  async function rpc(request: IncomingMessage, response: ServerResponse, url: string) {
    const principal = resolved.authorize
      ? await authorizeRequest(resolved.authorize, request)
      : undefined;
    let body: unknown;
    try {
      body = await readJsonBody(request, resolved.maxBodyBytes);
    } catch (error) {
      // A body that is not JSON is JSON-RPC's parse error; too large or not JSON at all stays HTTP's.
      if (!HttpRequestError.isInstance(error) || error.code !== 'INVALID_BODY') throw error;
      sendJson(
        response,
        200,
        rpcError(null, PARSE_ERROR, `Parse error: the body ${error.message}`),
      );
      return;
    }
    if (body === undefined) throw HttpRequestError.invalidBody('is empty: a POST carries JSON-RPC');
    const problem = envelopeProblem(body);
    if (problem) {
      sendJson(
        response,
        200,
        rpcError((body as { id?: unknown }).id, INVALID_REQUEST, `Invalid Request: ${problem}`),
      );
      return;
    }
    const version = request.headers[A2A_VERSION_HEADER.toLowerCase()];
    const context = defaultServerCallContextBuilder({
      extensions: undefined,
      user: principal === undefined ? undefined : { isAuthenticated: true, userName: principal },
      headers: request.headers,
      requestedVersion: typeof version === 'string' ? version : undefined,
    });
    const gone = new AbortController();
    setClientGone(context, gone.signal);
    const id = (body as { id?: unknown }).id ?? null;
    try {
      validateVersion(context.requestedVersion, requestHandler.cardFor(url), 'JSONRPC');
    } catch (error) {
      sendJson(response, 200, { jsonrpc: '2.0', id, error: toJsonRpcError(error) });
      return;
    }
    const answer = await transport.handle(body as Record<string, unknown>, context);
    const stream = streamOf(answer);
    if (!stream) {
      sendJson(response, 200, answer);
      return;
    }
    const iterator = stream[Symbol.asyncIterator]();
    // A stream that fails before its first event is answered as one JSON-RPC error.
    const first = await iterator.next().catch((error: unknown) => ({ error }));
    if ('error' in first) {
      sendJson(response, 200, { jsonrpc: '2.0', id, error: toJsonRpcError(first.error) });
      return;
    }
    response.writeHead(200, SSE_HEADERS);
    // The client hung up: stop following (its task goes on; it can subscribe again). A stream
    // waiting for its next event takes `return` only after it, so it hears the signal too.
    response.on('close', () => {
      gone.abort();
      void iterator.return(undefined);
    });
    try {
      if (!first.done) response.write(formatSSEEvent(first.value));
      for (;;) {
        const next = await iterator.next();
        if (next.done || response.destroyed) break;
        response.write(formatSSEEvent(next.value));
      }
    } catch (error) {
      if (!response.destroyed)
        response.write(formatSSEEvent({ jsonrpc: '2.0', id, error: toJsonRpcError(error) }));
    } finally {
      response.end();
    }
  }

  const handler = async (request: IncomingMessage, response: ServerResponse) => {
    try {
      const hosts = hostsFor(request.socket.localPort ?? 0);
      guardRequest(request, hosts, {
        ...(resolved.allowedOrigins ? { allowedOrigins: resolved.allowedOrigins } : {}),
      });
      const target = requestUrl(request);
      const url = resolved.url ?? `${target.protocol}//${target.host}${resolved.path}`;
      const method = request.method ?? '';
      if (target.pathname === AGENT_CARD_PATH || target.pathname === `/${AGENT_CARD_PATH}`) {
        if (method !== 'GET' && method !== 'HEAD')
          throw HttpRequestError.methodNotAllowed(method, ['GET', 'HEAD']);
        sendJson(response, 200, requestHandler.cardFor(url));
        return;
      }
      if (target.pathname !== resolved.path) throw HttpRequestError.routeNotFound(target.pathname);
      if (method !== 'POST') throw HttpRequestError.methodNotAllowed(method, ['POST']);
      await rpc(request, response, url);
    } catch (error) {
      if (response.headersSent) response.end();
      else sendError(response, error);
    }
  };
  return Object.assign(handler, { requestHandler });
}
