import { MAX_TIMER_MS } from '../options/check-integer-option.js';

/**
 * The longest retry-after that is honoured: what one timer can wait (2^31 - 1 ms, about 24.8
 * days). Node fires a longer timer after 1 ms, so a retry waiting for it would be sent at once,
 * and refused again.
 */
const MAX_RETRY_AFTER_MS = MAX_TIMER_MS;

interface HeaderReader {
  get(name: string): string | null;
}

/** `retry-after-ms` (milliseconds) or `retry-after` (seconds or an HTTP date), if sent. */
export function retryAfterMs(headers: unknown): number | undefined {
  const get = (headers as { get?: unknown } | null | undefined)?.get;
  if (typeof get !== 'function') return undefined;
  const read = (name: string): string | null => {
    const value: unknown = get.call(headers, name);
    return typeof value === 'string' ? value : null;
  };
  const ms = Number.parseFloat(read('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const after = read('retry-after');
  if (after === null) return undefined;
  const seconds = Number.parseFloat(after);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * The wait the `openai` package's own retry takes from these headers, read as it reads them
 * (openai 6: `retry-after-ms`, else `retry-after` in seconds or as a date), infinities included.
 */
function sdkRetryWait(headers: HeaderReader): number | undefined {
  let wait: number | undefined;
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (!Number.isNaN(ms)) wait = ms;
  const after = headers.get('retry-after');
  if (after && !wait) {
    const seconds = Number.parseFloat(after);
    wait = Number.isNaN(seconds) ? Date.parse(after) - Date.now() : seconds * 1000;
  }
  return wait;
}

/**
 * `fetch` for the `openai` clients this package builds. The package's own retries
 * (`maxRetries` > 0) wait whatever retry-after says; one longer than a timer holds would fire
 * after 1 ms, with a TimeoutOverflowWarning, and the request would be sent again at once. Such a
 * response gets `x-should-retry: false`, which the package obeys: the call fails at once with a
 * `ProviderError` (`PROVIDER_REQUEST_FAILED`) that is not retryable and keeps the retry-after
 * asked for.
 */
export async function fetchWithoutOverlongRetries(
  input: Parameters<typeof fetch>[0],
  init?: Parameters<typeof fetch>[1],
): Promise<Response> {
  const response = await fetch(input, init);
  if (response.ok) return response;
  const wait = sdkRetryWait(response.headers);
  if (wait === undefined || !(wait > MAX_RETRY_AFTER_MS)) return response;
  const headers = new Headers(response.headers);
  headers.set('x-should-retry', 'false');
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}
