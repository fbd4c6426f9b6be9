import type { IncomingMessage } from 'node:http';
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import {
  type OAuthProtectedResourceMetadata,
  OAuthProtectedResourceMetadataSchema,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { bearerToken, formatChallenge, HttpRequestError } from '@skein/http';
import { InvalidArgumentError } from '@skein/spec';

/**
 * The MCP SDK's `OAuthTokenVerifier`, spelt out: its module's types import Express's, which an
 * app that does not use Express has no types for (tsc without skipLibCheck fails on them).
 */
export interface TokenVerifier {
  verifyAccessToken(token: string): Promise<AuthInfo>;
}

/**
 * OAuth bearer tokens as the MCP authorization spec asks of a server (a protected resource,
 * RFC 9728): the MCP SDK's verifier interface, and this server's protected-resource metadata.
 */
export interface McpBearerAuth {
  /**
   * Verifies an access token (`verifyAccessToken(token) → AuthInfo`, the MCP SDK's
   * `OAuthTokenVerifier`: a `ProxyOAuthServerProvider`, a JWT check, an introspection call). A
   * token it refuses is thrown as the SDK's `InvalidTokenError` (or any `OAuthError`).
   */
  readonly verifier: TokenVerifier;
  /**
   * This server's protected-resource metadata (RFC 9728), served as it is at
   * `/.well-known/oauth-protected-resource<path of resource>`: `resource` is the server's public
   * URL (`https://mcp.example.com/mcp`), `authorization_servers` (one at least) where clients get
   * tokens. Checked with the MCP SDK's schema when the handler is made.
   */
  readonly resourceMetadata: OAuthProtectedResourceMetadata;
  /** Scopes every token must hold: 403 `insufficient_scope` otherwise. */
  readonly requiredScopes?: readonly string[];
}

/** A bearer setup, checked, with the URL of its metadata. */
export interface ResolvedBearerAuth {
  readonly verifier: TokenVerifier;
  readonly metadata: OAuthProtectedResourceMetadata;
  /** Where the metadata is served, absolute (what `resource_metadata` in a challenge says). */
  readonly metadataUrl: string;
  /** The path the metadata is served at on this server. */
  readonly metadataPath: string;
  readonly requiredScopes: readonly string[];
}

/** RFC 9728 §3.1: the well-known path goes between the resource's host and its path. */
function metadataUrlOf(resource: string): URL {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return new URL(`/.well-known/oauth-protected-resource${path}`, url.origin);
}

/** Checks a bearer setup (`InvalidArgumentError` naming the field) and works out its metadata URL. */
export function resolveBearerAuth(auth: McpBearerAuth): ResolvedBearerAuth {
  const where = 'bearerAuth';
  if (typeof auth?.verifier?.verifyAccessToken !== 'function')
    throw new InvalidArgumentError(
      `${where}.verifier`,
      `${where}.verifier must have verifyAccessToken(token), the MCP SDK's OAuthTokenVerifier`,
    );
  const parsed = OAuthProtectedResourceMetadataSchema.safeParse(auth.resourceMetadata);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InvalidArgumentError(
      `${where}.resourceMetadata${issue.path.map((p) => `.${String(p)}`).join('')}`,
      `${where}.resourceMetadata is not RFC 9728 protected-resource metadata: ${issue.path.join('.') || 'the document'}: ${issue.message}`,
    );
  }
  const metadata = parsed.data;
  if (!metadata.authorization_servers?.length)
    throw new InvalidArgumentError(
      `${where}.resourceMetadata.authorization_servers`,
      'the MCP authorization spec asks for at least one authorization server, where clients get tokens',
    );
  if (new URL(metadata.resource).hash !== '')
    throw new InvalidArgumentError(
      `${where}.resourceMetadata.resource`,
      'a resource identifier has no fragment (RFC 8707)',
    );
  const scopes = auth.requiredScopes ?? [];
  if (!Array.isArray(scopes) || scopes.some((s) => typeof s !== 'string' || s === ''))
    throw new InvalidArgumentError(`${where}.requiredScopes`, 'requiredScopes must be strings');
  const url = metadataUrlOf(metadata.resource);
  return {
    verifier: auth.verifier,
    metadata,
    metadataUrl: url.href,
    metadataPath: url.pathname,
    requiredScopes: scopes,
  };
}

/** A resource as clients compare it: without its fragment and one trailing slash. */
const comparable = (resource: string) => resource.replace(/#.*$/, '').replace(/\/$/, '');

/**
 * The verified token of a request and the caller it names (`principalOf`), or the refusal the
 * MCP authorization spec asks for: 401 with `WWW-Authenticate: Bearer resource_metadata="<url>"`
 * without a token (and `error="invalid_token"` for a malformed, refused, expired or foreign one,
 * or one that names no caller), 403 `insufficient_scope` for a token without the required
 * scopes. A verifier failing otherwise is a 500, as any failure.
 */
export async function verifyBearer(
  request: IncomingMessage,
  auth: ResolvedBearerAuth,
  principalOf: (info: AuthInfo) => string | undefined,
  now: number = Date.now(),
): Promise<{ readonly authInfo: AuthInfo; readonly principal: string }> {
  const scope = auth.requiredScopes.length > 0 ? auth.requiredScopes.join(' ') : undefined;
  const challenge = (error?: string, description?: string) =>
    formatChallenge('Bearer', {
      resource_metadata: auth.metadataUrl,
      ...(scope === undefined ? {} : { scope }),
      error,
      error_description: description,
    });
  const refuse = (description: string) =>
    HttpRequestError.unauthorized(description, challenge('invalid_token', description));
  let token: string | undefined;
  try {
    token = bearerToken(request.headers.authorization);
  } catch (error) {
    throw refuse((error as Error).message);
  }
  if (token === undefined)
    throw HttpRequestError.unauthorized(
      'This MCP server needs an OAuth access token (Authorization: Bearer …); its protected-resource metadata says where to get one',
      challenge(),
    );
  let info: AuthInfo;
  try {
    info = await auth.verifier.verifyAccessToken(token);
  } catch (error) {
    if (error instanceof OAuthError && error.errorCode === 'insufficient_scope')
      throw insufficientScope(error.message, challenge('insufficient_scope', error.message));
    if (error instanceof OAuthError && error.errorCode === 'invalid_token')
      throw refuse(error.message);
    throw error;
  }
  if (
    info.resource !== undefined &&
    comparable(String(info.resource)) !== comparable(auth.metadata.resource)
  )
    throw refuse('The token was not issued for this resource');
  if (typeof info.expiresAt !== 'number' || Number.isNaN(info.expiresAt))
    throw refuse('The token has no expiration time');
  if (info.expiresAt < now / 1000) throw refuse('The token has expired');
  if (!auth.requiredScopes.every((s) => info.scopes?.includes(s))) {
    const lacking = `The token lacks a scope this server requires (${scope})`;
    throw insufficientScope(lacking, challenge('insufficient_scope', lacking));
  }
  const principal = principalOf(info);
  if (principal === undefined) throw refuse('The token names no caller');
  return { authInfo: info, principal };
}

function insufficientScope(message: string, challenge: string) {
  return new HttpRequestError('INSUFFICIENT_SCOPE', message, { challenge });
}
