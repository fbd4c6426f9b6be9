import { bearerToken } from '@skein/http';

// A demo sign-in: two bearer tokens and the users they stand for. Your app asks its own sign-in
// here instead (Auth.js's `auth()`, Clerk, a signed session cookie, a JWT verifier).
const DEMO_TOKENS = new Map([
  ['ada-token', 'ada'],
  ['bob-token', 'bob'],
]);

/**
 * The caller a request names with `Authorization: Bearer <token>`, or undefined (the chat
 * handler answers 401). A Map, not an object literal: a token such as `constructor` must name
 * nobody.
 */
export function demoUser(request: Request): string | undefined {
  const token = bearerToken(request.headers.get('authorization'));
  return token === undefined ? undefined : DEMO_TOKENS.get(token);
}
