import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { TokenVerifier } from '../http/bearer-auth.js';

/**
 * A small OAuth authorization server on 127.0.0.1 for the tests: its RFC 8414 metadata and a
 * token endpoint for the client-credentials grant (client_secret_basic), each client acting for
 * one user (`sub`). `verifier` is what the MCP server checks its tokens with (the
 * introspection a real one would do over the network, here a shared table). `issue` makes
 * tokens directly, of any shape, for the refusal cases.
 */
export interface TestAuthServer {
  readonly issuer: string;
  readonly verifier: TokenVerifier;
  issue(info: Omit<AuthInfo, 'token'>): string;
  close(): Promise<void>;
}

function bodyOf(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}

export async function startAuthServer(
  clients: Record<string, { readonly secret: string; readonly sub: string }>,
  scopes: readonly string[],
): Promise<TestAuthServer> {
  const tokens = new Map<string, AuthInfo>();
  let issued = 0;
  const issue = (info: Omit<AuthInfo, 'token'>) => {
    const token = `token-${++issued}`;
    tokens.set(token, { ...info, token });
    return token;
  };
  let issuer = '';
  const server: Server = createServer(async (request, response) => {
    const json = (status: number, body: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (request.url === '/.well-known/oauth-authorization-server')
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        response_types_supported: ['code'],
        grant_types_supported: ['client_credentials'],
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
      });
    if (request.url !== '/token' || request.method !== 'POST') return json(404, {});
    const [id, secret] = Buffer.from(
      (request.headers.authorization ?? '').replace(/^Basic /, ''),
      'base64',
    )
      .toString()
      .split(':')
      .map(decodeURIComponent);
    const form = new URLSearchParams(await bodyOf(request));
    const client = id === undefined ? undefined : clients[id];
    if (!client || client.secret !== secret || form.get('grant_type') !== 'client_credentials')
      return json(401, { error: 'invalid_client' });
    const resource = form.get('resource');
    const access = issue({
      clientId: id!,
      scopes: [...scopes],
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
      ...(resource ? { resource: new URL(resource) } : {}),
      extra: { sub: client.sub },
    });
    return json(200, { access_token: access, token_type: 'Bearer', expires_in: 3600 });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    verifier: {
      verifyAccessToken: async (token) => {
        const info = tokens.get(token);
        if (!info) throw new InvalidTokenError('The token is unknown or was revoked');
        return info;
      },
    },
    issue,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
