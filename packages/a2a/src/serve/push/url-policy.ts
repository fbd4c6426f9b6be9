import { malformed } from '../a2a-errors.js';
import { isSpecialHost } from './special-address.js';

/** Decides whether the agent may POST push notifications to `url` (already http or https). */
export type AllowPushUrl = (url: URL) => boolean | Promise<boolean>;

/** Longer URLs are refused: a config is stored, and a URL is no place for a payload. */
const MAX_URL_LENGTH = 2048;

/**
 * The default policy: `https:` only, to a host that is neither `localhost` nor a loopback,
 * private, link-local or unique-local literal address. The URL comes from the caller and the
 * agent POSTs to it: without this, any caller could make the agent reach its own network.
 */
export function isPublicHttpsUrl(url: URL): boolean {
  return url.protocol === 'https:' && url.hostname !== '' && !isSpecialHost(url.hostname);
}

/**
 * `raw` as the URL push notifications may go to, or a RequestMalformedError (InvalidParams)
 * naming `field`. Always refused, whatever `allow` says: a scheme other than http(s) (fetch
 * could read `file:` or `data:`), and credentials in the URL (fetch refuses them; the config's
 * `authentication` carries them). `allow` replaces the default policy (`isPublicHttpsUrl`).
 */
export async function checkPushUrl(
  raw: unknown,
  field: string,
  allow: AllowPushUrl = isPublicHttpsUrl,
): Promise<URL> {
  if (typeof raw !== 'string' || raw === '')
    throw malformed(`${field} is missing: the URL push notifications are POSTed to`);
  if (raw.length > MAX_URL_LENGTH)
    throw malformed(`${field} is longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw malformed(`${field} ${JSON.stringify(raw)} is not an absolute URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw malformed(`${field} must be an https URL, got the scheme ${url.protocol}`);
  if (url.username !== '' || url.password !== '')
    throw malformed(`${field} must not carry credentials: give them as authentication`);
  if (!(await allow(url)))
    throw malformed(
      allow === isPublicHttpsUrl
        ? `${field} ${JSON.stringify(url.origin)} is refused: push notifications go to public https servers only (not localhost, loopback, private or link-local addresses)`
        : `${field} ${JSON.stringify(url.origin)} is refused by this agent's allowUrl`,
    );
  return url;
}
