import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A webhook token: the thread id (so the handler finds the thread) and a 256-bit secret. */
export interface WebhookToken {
  readonly token: string;
  /** What is stored with the wait: SHA-256 of the secret, hex. */
  readonly tokenHash: string;
}

function hashOf(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** A new unguessable token for `threadId`: `<base64url thread id>.<base64url 32 random bytes>`. */
export function newWebhookToken(threadId: string): WebhookToken {
  const secret = randomBytes(32).toString('base64url');
  return {
    token: `${Buffer.from(threadId).toString('base64url')}.${secret}`,
    tokenHash: hashOf(secret),
  };
}

/** The thread id and secret of a token, or undefined when it is not one. */
export function parseWebhookToken(token: string): { threadId: string; secret: string } | undefined {
  const dot = token.indexOf('.');
  if (dot <= 0 || dot === token.length - 1 || token.length > 2_048) return undefined;
  const threadId = Buffer.from(token.slice(0, dot), 'base64url').toString('utf8');
  const secret = token.slice(dot + 1);
  if (threadId === '' || !/^[A-Za-z0-9_-]+$/.test(secret)) return undefined;
  return { threadId, secret };
}

/**
 * Whether `secret` is the one `tokenHash` was made from. Both sides are SHA-256 digests of the
 * same length, compared in constant time: the time taken says nothing about how much matched.
 */
export function webhookSecretMatches(secret: string, tokenHash: string): boolean {
  const given = createHash('sha256').update(secret).digest();
  const stored = Buffer.from(tokenHash, 'hex');
  return stored.length === given.length && timingSafeEqual(given, stored);
}
