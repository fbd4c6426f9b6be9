import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';

/**
 * What reached the client while `call` ran, in the order it arrived, before the SDK handled it:
 * each progress notification as `progress <message>`, each response as `response`.
 *
 * The SDK client (1.x) handles a notification a microtask after it arrives but a response at once,
 * and forgets a request's progress token with its response: progress that arrives in the same read
 * as the response (a pipe or a stream under load) never reaches `onprogress` (SDK issue #2580).
 * A server cannot prevent that; what it owes is every notification written before the response,
 * which is what this shows.
 */
async function arrivals<T>(
  client: Client,
  call: () => Promise<T>,
): Promise<{ result: T; arrived: string[] }> {
  const transport = client.transport;
  const handle = transport?.onmessage;
  if (!transport || !handle) throw new Error('connect the client first');
  const arrived: string[] = [];
  transport.onmessage = (message, extra) => {
    if ('method' in message && message.method === 'notifications/progress')
      arrived.push(`progress ${String(message.params?.message)}`);
    else if (!('method' in message)) arrived.push('response');
    handle.call(transport, message, extra);
  };
  try {
    return { result: await call(), arrived };
  } finally {
    transport.onmessage = handle;
  }
}

/**
 * Calls `greet` for Ada with a progress token over a real transport and checks its result, that
 * every node's progress was written before it, and that `onprogress` saw a prefix of that progress
 * (all of it unless the last notifications came in the same read as the result; see `arrivals`).
 */
export async function expectGreetingWithProgress(client: Client): Promise<void> {
  const progress: string[] = [];
  const { result, arrived } = await arrivals(
    client,
    () =>
      client.callTool({ name: 'greet', arguments: { name: 'Ada' } }, undefined, {
        onprogress: (p) => progress.push(`progress ${p.message}`),
        // A busy CI machine can take longer than the SDK's 60 s default.
        timeout: 240_000,
      }) as Promise<CallToolResult>,
  );
  expect(result.structuredContent).toMatchObject({
    status: 'COMPLETED',
    output: ['Ada', 'Hello Ada!'],
  });
  expect(arrived).toEqual([
    'progress start (START)',
    'progress Write the greeting (LLM)',
    'progress end (END)',
    'response',
  ]);
  expect(progress).toEqual(arrived.slice(0, progress.length));
}
