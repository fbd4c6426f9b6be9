// A webhook on 127.0.0.1 that records the push notifications POSTed to it, answering each with
// the next of the statuses it was given (then 200).
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Task, TaskState } from '@a2a-js/sdk';

export interface ReceivedPush {
  readonly headers: IncomingHttpHeaders;
  /** The body as JSON: `{ task: … }`, the task as the A2A JSON gives it. */
  readonly body: { task?: Record<string, unknown> };
  /** The status it was answered with. */
  readonly status: number;
}

export interface PushReceiver {
  /** Where to POST: `http://127.0.0.1:<port>/hook`. */
  readonly url: string;
  /** Every POST, in the order received. */
  readonly received: readonly ReceivedPush[];
  /** Resolves once `count` POSTs have been received (no clock: the POST resolves it). */
  until(count: number): Promise<void>;
  close(): Promise<void>;
}

export async function pushReceiver(statuses: readonly number[] = []): Promise<PushReceiver> {
  const received: ReceivedPush[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const status = statuses[received.length] ?? 200;
      const text = Buffer.concat(chunks).toString('utf8');
      received.push({
        headers: request.headers,
        body: text === '' ? {} : JSON.parse(text),
        status,
      });
      response.writeHead(status).end();
      for (const waiter of waiters.filter((w) => received.length >= w.count)) waiter.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    until: (count) =>
      received.length >= count
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push({ count, resolve })),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The task states of the pushes a receiver took (answered 2xx), in order. */
export function deliveredStates(receiver: PushReceiver): TaskState[] {
  return receiver.received
    .filter((push) => push.status < 300)
    .map((push) => taskOf(push).status?.state ?? TaskState.TASK_STATE_UNSPECIFIED);
}

/** The task a push carries, read by the SDK's own reader of the wire JSON. */
export function taskOf(push: ReceivedPush): Task {
  return Task.fromJSON(push.body.task);
}
