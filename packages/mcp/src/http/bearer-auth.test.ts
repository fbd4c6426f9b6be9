import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryCheckpointStore, type SkeinEngine } from '@skein/core';
import { errorAnswer } from '@skein/http';
import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, type TestAuthServer } from '../test-support/auth-server.js';
import { testClient } from '../test-support/connect.js';
import { INITIALIZE } from '../test-support/raw-initialize.js';
import { testEngine } from '../test-support/workflows.js';
import { resolveBearerAuth, verifyBearer } from './bearer-auth.js';
import { createMcpHttpHandler } from './create-http-handler.js';
import type { McpHttpOptions } from './http-options.js';

const SCOPE = 'mcp:tools';
let auth: TestAuthServer;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  auth = await startAuthServer(
    {
      'ada-app': { secret: 'ada-secret', sub: 'ada' },
      'bob-app': { secret: 'bob-secret', sub: 'bob' },
    },
    [SCOPE],
  );
  return () => auth.close();
});

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** An MCP server with bearer auth on 127.0.0.1; its public URL is where it listens. */
async function serve(engine: SkeinEngine, options: Partial<McpHttpOptions> = {}) {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/mcp`;
  const handler = createMcpHttpHandler(engine, {
    name: 'auth-test',
    version: '1.0.0',
    bearerAuth: {
      verifier: auth.verifier,
      resourceMetadata: {
        resource: url,
        authorization_servers: [auth.issuer],
        scopes_supported: [SCOPE],
        resource_name: 'Trips',
      },
      requiredScopes: [SCOPE],
    },
    ...options,
  });
  server.on('request', (request, response) => void handler(request, response));
  closers.push(async () => {
    await handler.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url, port };
}

/** An SDK client that gets its own token: the client-credentials grant, discovered from a 401. */
async function oauthClient(url: string, clientId: string, clientSecret: string) {
  const client = testClient();
  const authProvider = new ClientCredentialsProvider({
    clientId,
    clientSecret,
    expectedIssuer: auth.issuer,
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider }));
  closers.push(() => client.close());
  return client;
}

/** An SDK client with a token it was given (`Authorization` on every request). */
async function tokenClient(url: string, token: string) {
  const client = testClient();
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  closers.push(() => client.close());
  return client;
}

function post(url: string, headers: Record<string, string> = {}, body = INITIALIZE) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body,
  });
}

const text = (result: unknown) =>
  (result as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('');

const bobToken = () =>
  auth.issue({
    clientId: 'bob-app',
    scopes: [SCOPE],
    expiresAt: 4_000_000_000,
    extra: { sub: 'bob' },
  });

describe('MCP over HTTP with bearer tokens', () => {
  it('answers a request without a token with 401 and the challenge the SDK client reads, and serves its metadata', async () => {
    const { url, port } = await serve(testEngine());
    const refused = await post(url);
    expect(refused.status).toBe(401);
    const metadataUrl = `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`;
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${metadataUrl}", scope="${SCOPE}"`,
    );
    const { resourceMetadataUrl, scope, error } = extractWWWAuthenticateParams(refused);
    expect([resourceMetadataUrl?.href, scope, error]).toEqual([metadataUrl, SCOPE, undefined]);
    expect(await refused.json()).toMatchObject({ error: { data: { code: 'UNAUTHORIZED' } } });
    // The SDK's own discovery (RFC 9728) finds and validates the document.
    expect(await discoverOAuthProtectedResourceMetadata(new URL(url))).toEqual({
      resource: url,
      authorization_servers: [auth.issuer],
      scopes_supported: [SCOPE],
      resource_name: 'Trips',
    });
    // Public for any origin, as the SDK's metadata handler answers it.
    const preflight = await fetch(metadataUrl, {
      method: 'OPTIONS',
      headers: { origin: 'https://client.example', 'access-control-request-method': 'GET' },
    });
    expect([preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([
      204,
      '*',
    ]);
    // An SDK client without a way to get a token stops at the 401.
    await expect(
      testClient().connect(new StreamableHTTPClientTransport(new URL(url))),
    ).rejects.toThrow();
  });

  it('refuses a bad token with 401 invalid_token, and one without the scope with 403', async () => {
    const { url } = await serve(testEngine());
    const far = 4_000_000_000;
    const cases: [string, string, number, string][] = [
      ['Bearer unknown', 'invalid_token', 401, 'The token is unknown or was revoked'],
      [
        `Bearer ${auth.issue({ clientId: 'x', scopes: [SCOPE], expiresAt: 1 })}`,
        'invalid_token',
        401,
        'The token has expired',
      ],
      [
        `Bearer ${auth.issue({ clientId: 'x', scopes: [SCOPE] })}`,
        'invalid_token',
        401,
        'The token has no expiration time',
      ],
      [
        `Bearer ${auth.issue({ clientId: 'x', scopes: [SCOPE], expiresAt: far, resource: new URL('https://other.example/mcp') })}`,
        'invalid_token',
        401,
        'The token was not issued for this resource',
      ],
      [
        'Bearer a b',
        'invalid_token',
        401,
        'the Authorization header holds more than one Bearer token',
      ],
      [
        `Bearer ${auth.issue({ clientId: 'x', scopes: [], expiresAt: far })}`,
        'insufficient_scope',
        403,
        'The token lacks a scope this server requires (mcp:tools)',
      ],
    ];
    for (const [authorization, code, status, description] of cases) {
      const answer = await post(url, { authorization });
      const { error } = extractWWWAuthenticateParams(answer);
      expect([authorization, answer.status, error]).toEqual([authorization, status, code]);
      expect(answer.headers.get('www-authenticate')).toContain(
        `error_description="${description}"`,
      );
    }
  });

  it("keeps each caller's threads its own: get_thread and resume_thread of another's are THREAD_NOT_FOUND", async () => {
    const store = new InMemoryCheckpointStore();
    const { url } = await serve(testEngine({ store }));
    const ada = await oauthClient(url, 'ada-app', 'ada-secret');
    const bob = await tokenClient(url, bobToken());

    const paused = (await ada.callTool({ name: 'trip', arguments: {} })) as CallToolResult;
    const { threadId } = paused.structuredContent as { threadId: string };
    expect(paused.structuredContent).toMatchObject({ status: 'PAUSED' });
    expect((await store.load(threadId))!.state.principal).toBe('ada');
    const before = await store.list(threadId);

    const unknown = crypto.randomUUID();
    const nothing = text(
      await bob.callTool({ name: 'get_thread', arguments: { threadId: unknown } }),
    );
    const peek = await bob.callTool({ name: 'get_thread', arguments: { threadId } });
    expect(peek.isError).toBe(true);
    // Word for word what a thread that does not exist gets.
    expect(text(peek)).toBe(nothing.replaceAll(unknown, threadId));
    const take = await bob.callTool({
      name: 'resume_thread',
      arguments: { threadId, input: 'Paris' },
    });
    expect(text(take)).toMatch(/^THREAD_NOT_FOUND: /);
    expect(await store.list(threadId)).toEqual(before);

    // Ada reads and answers her own.
    const seen = (await ada.callTool({
      name: 'get_thread',
      arguments: { threadId },
    })) as CallToolResult;
    expect(seen.structuredContent).toMatchObject({ status: 'PAUSED' });
    const done = (await ada.callTool({
      name: 'resume_thread',
      arguments: { threadId, input: 'Rome' },
    })) as CallToolResult;
    expect(done.structuredContent).toMatchObject({ status: 'COMPLETED', output: 'Plan for Rome' });

    // Bob's payment waits for Bob: Ada cannot approve it.
    const booking = (await bob.callTool({
      name: 'booking',
      arguments: { message: 'Book Oslo' },
    })) as CallToolResult;
    const bobs = (booking.structuredContent as { threadId: string }).threadId;
    const approvals = { approvals: { call_book: true } };
    const stolen = await ada.callTool({
      name: 'resume_thread',
      arguments: { threadId: bobs, input: approvals },
    });
    expect(text(stolen)).toMatch(/^THREAD_NOT_FOUND: /);
    const booked = (await bob.callTool({
      name: 'resume_thread',
      arguments: { threadId: bobs, input: approvals },
    })) as CallToolResult;
    expect(booked.structuredContent).toMatchObject({
      status: 'COMPLETED',
      output: 'Done: booked to Oslo',
    });
  });

  it("keeps a thread its caller's without a store too", async () => {
    const { url } = await serve(testEngine());
    const ada = await oauthClient(url, 'ada-app', 'ada-secret');
    const bob = await tokenClient(url, bobToken());
    const paused = (await ada.callTool({ name: 'trip', arguments: {} })) as CallToolResult;
    const { threadId } = paused.structuredContent as { threadId: string };
    expect(text(await bob.callTool({ name: 'get_thread', arguments: { threadId } }))).toMatch(
      /^THREAD_NOT_FOUND: /,
    );
    const mine = (await ada.callTool({
      name: 'get_thread',
      arguments: { threadId },
    })) as CallToolResult;
    expect(mine.structuredContent).toMatchObject({ status: 'PAUSED' });
  });

  it("answers a session id with another caller's token as a closed session (404)", async () => {
    const { url } = await serve(testEngine());
    const adaToken = auth.issue({
      clientId: 'ada-app',
      scopes: [SCOPE],
      expiresAt: 4_000_000_000,
      extra: { sub: 'ada' },
    });
    const opened = await post(url, { authorization: `Bearer ${adaToken}` });
    expect(opened.status).toBe(200);
    await opened.body?.cancel();
    const session = opened.headers.get('mcp-session-id')!;
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
    const hijack = await post(url, { ...headers, authorization: `Bearer ${bobToken()}` }, list);
    expect(hijack.status).toBe(404);
    expect(await hijack.json()).toMatchObject({ error: { data: { code: 'SESSION_NOT_FOUND' } } });
    const own = await post(url, { ...headers, authorization: `Bearer ${adaToken}` }, list);
    expect(own.status).toBe(200);
    await own.body?.cancel();
  });

  it('still refuses another origin (403) and another Host (421) before asking for a token', async () => {
    const { url, port } = await serve(testEngine());
    expect((await post(url, { origin: 'https://evil.example' })).status).toBe(403);
    const rebound = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(url, {
        method: 'POST',
        headers: { host: `evil.example:${port}`, 'content-type': 'application/json' },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(INITIALIZE);
    });
    expect(rebound).toBe(421);
  });
});

describe('bearerAuth, checked', () => {
  const metadata = {
    resource: 'https://mcp.example.com/mcp',
    authorization_servers: ['https://auth.example.com'],
  };
  const verifier = { verifyAccessToken: async () => ({ token: 't', clientId: 'c', scopes: [] }) };

  it('refuses a setup a client could not use, naming the field', () => {
    for (const [resourceMetadata, field] of [
      [
        { resource: 'https://mcp.example.com/mcp' },
        'bearerAuth.resourceMetadata.authorization_servers',
      ],
      [{ ...metadata, resource: 'not a url' }, 'bearerAuth.resourceMetadata.resource'],
      [
        { ...metadata, resource: 'https://mcp.example.com/mcp#x' },
        'bearerAuth.resourceMetadata.resource',
      ],
    ] as const)
      expect(() => resolveBearerAuth({ verifier, resourceMetadata } as never)).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: field }),
      );
    expect(() => resolveBearerAuth({ verifier: {} as never, resourceMetadata: metadata })).toThrow(
      expect.objectContaining({ argument: 'bearerAuth.verifier' }),
    );
    expect(() =>
      createMcpHttpHandler(testEngine(), {
        name: 'x',
        version: '1',
        bearerAuth: { verifier, resourceMetadata: metadata },
        authorize: () => 'ada',
      }),
    ).toThrow(expect.objectContaining({ argument: 'bearerAuth' }));
  });

  it('serves its metadata where RFC 9728 puts it, for any resource path', () => {
    expect(resolveBearerAuth({ verifier, resourceMetadata: metadata }).metadataUrl).toBe(
      'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
    );
    const root = { ...metadata, resource: 'https://mcp.example.com/' };
    expect(resolveBearerAuth({ verifier, resourceMetadata: root }).metadataPath).toBe(
      '/.well-known/oauth-protected-resource',
    );
  });

  it('writes challenges the MCP SDK client reads back, whatever the verifier says', async () => {
    const path = fc.stringMatching(/^(\/[a-z0-9-]{1,8}){0,3}$/);
    await fc.assert(
      fc.asyncProperty(path, fc.string({ maxLength: 80 }), async (resourcePath, description) => {
        const resolved = resolveBearerAuth({
          verifier: {
            verifyAccessToken: async () => {
              throw new InvalidTokenError(description);
            },
          },
          resourceMetadata: { ...metadata, resource: `https://mcp.example.com${resourcePath}` },
          requiredScopes: [SCOPE],
        });
        const request = { headers: { authorization: 'Bearer abc' } } as IncomingMessage;
        const refusal = await verifyBearer(request, resolved, () => 'x').catch((e: unknown) => e);
        const { status, headers } = errorAnswer(refusal);
        const read = extractWWWAuthenticateParams(new Response(null, { headers }));
        expect(status).toBe(401);
        expect(read.resourceMetadataUrl?.href).toBe(resolved.metadataUrl);
        expect([read.error, read.scope]).toEqual(['invalid_token', SCOPE]);
      }),
    );
  });
});
