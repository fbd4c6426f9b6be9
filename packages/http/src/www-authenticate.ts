import { InvalidArgumentError } from '@skein/spec';

// RFC 9110 §5.6.2: what a scheme or a parameter name may be.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// What a quoted-string cannot carry (controls but HTAB), and what a header value in fetch's
// `Headers` cannot (past U+00FF); obs-text (U+0080 to U+00FF) is left out too, as clients misread it.
const UNQUOTABLE = /[^\t\x20-\x7e]/g;

/**
 * `value` as an RFC 9110 quoted-string: `"` and `\` escaped, and each character a header cannot
 * carry (a control, anything past U+007E) replaced by `?`, so a message from anywhere (a token
 * verifier's error) can go into a challenge.
 */
function quoted(value: string): string {
  return `"${value.replace(UNQUOTABLE, '?').replace(/["\\]/g, '\\$&')}"`;
}

/**
 * A `WWW-Authenticate` challenge (RFC 9110 §11.6.1): the scheme, then its parameters in the order
 * given, each as a quoted string, those undefined left out:
 * `formatChallenge('Bearer', { resource_metadata: url, error: 'invalid_token' })` is
 * `Bearer resource_metadata="<url>", error="invalid_token"`. A scheme or parameter name that is
 * not an HTTP token is refused (`InvalidArgumentError`).
 */
export function formatChallenge(
  scheme: string,
  params: Readonly<Record<string, string | undefined>> = {},
): string {
  if (!TOKEN.test(scheme))
    throw new InvalidArgumentError(
      'scheme',
      `a challenge's scheme must be an HTTP token, got ${JSON.stringify(scheme)}`,
    );
  const parts: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (!TOKEN.test(name))
      throw new InvalidArgumentError(
        `params.${name}`,
        `a challenge's parameter name must be an HTTP token, got ${JSON.stringify(name)}`,
      );
    parts.push(`${name}=${quoted(value)}`);
  }
  return parts.length === 0 ? scheme : `${scheme} ${parts.join(', ')}`;
}
