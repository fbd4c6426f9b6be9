import { allowedHosts } from './request-guard.js';

/**
 * The `Host` values a handler answers, for the local port a request came in on
 * (`request.socket.localPort`): a handler that can be mounted on any server, or on several, only
 * learns its port from its requests. Each port's set is made once and kept.
 */
export function hostsByPort(extra: Iterable<string> = []): (port: number) => ReadonlySet<string> {
  const more = [...extra];
  const sets = new Map<number, ReadonlySet<string>>();
  return (port) => {
    let hosts = sets.get(port);
    if (hosts === undefined) {
      hosts = allowedHosts(port, { extra: more });
      sets.set(port, hosts);
    }
    return hosts;
  };
}
