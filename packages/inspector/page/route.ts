/** What the hash names: the list, one thread, or nothing the page knows. */
export type Route =
  | { readonly kind: 'list' }
  | { readonly kind: 'thread'; readonly threadId: string }
  | { readonly kind: 'not-found'; readonly reason: 'bad-link' | 'unknown' };

/**
 * Reads `#/` (the list) and `#/thread/<id>`. A hash anyone can type or link to: a malformed
 * escape (`%E0%A4%A`) is a bad link, not an exception that leaves the page blank.
 */
export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#\/?/, '');
  if (path === '') return { kind: 'list' };
  if (!path.startsWith('thread/')) return { kind: 'not-found', reason: 'unknown' };
  let threadId: string;
  try {
    threadId = decodeURIComponent(path.slice('thread/'.length));
  } catch {
    return { kind: 'not-found', reason: 'bad-link' };
  }
  return threadId === '' ? { kind: 'not-found', reason: 'bad-link' } : { kind: 'thread', threadId };
}
