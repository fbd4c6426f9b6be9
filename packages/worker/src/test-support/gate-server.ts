import { createServer, type ServerResponse } from 'node:http';

/** One call of the gate: which thread, from which worker. */
interface GateArrival {
  readonly threadId: string;
  readonly worker: string;
}

export interface GateServer {
  /** What a worker process's gate tool fetches: `${url}/<thread id>?worker=<label>`. */
  readonly url: string;
  readonly arrivals: readonly GateArrival[];
  /** Threads whose call waits at the gate now. */
  waiting(): string[];
  /** Answers the thread's waiting calls, and every later one at once. */
  open(threadId: string): void;
  close(): Promise<void>;
}

/**
 * A gate on 127.0.0.1 for tools in worker processes: each call waits until the test opens the
 * gate for its thread, so a test decides when a node ends instead of guessing how long it takes.
 */
export async function startGateServer(): Promise<GateServer> {
  const arrivals: GateArrival[] = [];
  const opened = new Set<string>();
  const held = new Map<string, ServerResponse[]>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const threadId = decodeURIComponent(url.pathname.slice(1));
    arrivals.push({ threadId, worker: url.searchParams.get('worker') ?? '' });
    if (opened.has(threadId)) {
      res.end('open');
      return;
    }
    const waiting = held.get(threadId) ?? [];
    waiting.push(res);
    held.set(threadId, waiting);
    // A call whose worker went away stops waiting.
    res.once('close', () => {
      const list = held.get(threadId);
      if (list?.includes(res)) list.splice(list.indexOf(res), 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('gate has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    arrivals,
    waiting: () => [...held].filter(([, list]) => list.length > 0).map(([id]) => id),
    open(threadId) {
      opened.add(threadId);
      for (const res of held.get(threadId)?.splice(0) ?? []) res.end('open');
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
