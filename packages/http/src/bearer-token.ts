import { InvalidArgumentError } from '@skein/spec';

// RFC 6750 §2.1: `Bearer` 1*SP b64token, the scheme in any case.
const BEARER = /^bearer(?: +|$)/i;
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * The token of an `Authorization: Bearer <token>` header (RFC 6750 §2.1), given the header's
 * value: undefined when there is no header, or it is of another scheme (`Basic …`: credentials
 * this server does not take, as if there were none). A Bearer header without a token, with
 * more than one, or with characters a token cannot have is refused with `InvalidArgumentError`
 * naming `Authorization` and what is wrong (a surface answers it 401 `invalid_token`).
 */
export function bearerToken(authorization: string | null | undefined): string | undefined {
  if (authorization == null) return undefined;
  const header = authorization.trim();
  const scheme = BEARER.exec(header);
  if (!scheme) return undefined;
  const token = header.slice(scheme[0].length);
  if (token === '')
    throw new InvalidArgumentError('Authorization', 'the Authorization header has no Bearer token');
  if (!B64TOKEN.test(token))
    throw new InvalidArgumentError(
      'Authorization',
      /\s/.test(token)
        ? 'the Authorization header holds more than one Bearer token'
        : 'the Bearer token holds characters a token cannot have (RFC 6750: letters, digits, -._~+/ and trailing =)',
    );
  return token;
}
