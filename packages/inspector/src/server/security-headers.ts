import type { MiddlewareHandler } from 'hono';

// The page is built to need nothing inline and nothing from elsewhere, so the policy can be
// strict: a script injected into a message could neither run nor load anything. Images and audio
// of messages come from the part route, never from the address a part names, and are said so
// explicitly (default-src alone would allow the same), so a change to default-src cannot open them.
const POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "img-src 'self'",
  "media-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const HEADERS: readonly [string, string][] = [
  ['Content-Security-Policy', POLICY],
  // For browsers older than frame-ancestors: no other page may frame the inspector (clickjacking
  // an Approve button).
  ['X-Frame-Options', 'DENY'],
  ['X-Content-Type-Options', 'nosniff'],
  // Thread ids in the URL stay on this machine.
  ['Referrer-Policy', 'no-referrer'],
  // No other site may embed an answer (an image or script tag pointed at the API).
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  // A message's link to an address (a part by URL) is shown, never looked up until clicked: not
  // even its host name goes to the DNS ahead of a click.
  ['X-DNS-Prefetch-Control', 'off'],
];

/** Adds the security headers to every response: pages, assets, the API, errors, refusals. */
export const securityHeaders: MiddlewareHandler = async (c, next) => {
  // Set before the response is made, so that every response the context makes (error ones too)
  // carries them: a header added to a finished response is lost when Hono answers HEAD.
  for (const [name, value] of HEADERS) c.header(name, value);
  await next();
};
