import type { LLMCallOptions, LLMClient, LLMRequest, LLMResponse } from '@skein/spec';
import { type ConnectionOptions, resolveQueue } from './connection-options.js';
import { WorkerOptionError } from './errors/worker-option-error.js';
import { ListenConnection } from './listen-connection.js';
import { PostgresSemaphore } from './postgres-semaphore.js';

export type ConcurrencyLimitOptions = ConnectionOptions & {
  /** Names the limit: every client with the same key on the same database shares it. */
  readonly key: string;
  /** At most this many calls at once across all processes (1 to 10,000). */
  readonly max: number;
  /** How long a call may wait for a slot before `ConcurrencySlotTimeoutError`. Default 10 minutes. */
  readonly waitTimeoutMs?: number;
};

/** An `LLMClient` whose calls share a fleet-wide limit; `close()` frees its connections. */
export interface LimitedLLMClient extends LLMClient {
  close(): Promise<void>;
}

/**
 * Wraps `llm` so that at most `max` of its calls run at once across every worker process on the
 * database (e.g. to keep a fleet under a provider's concurrency limit and away from 429s). Each
 * call holds one PostgreSQL connection while it runs; waiting calls wake on NOTIFY.
 */
export function limitConcurrency(
  llm: LLMClient,
  options: ConcurrencyLimitOptions,
): LimitedLLMClient {
  const { key, max } = options;
  if (typeof key !== 'string' || key === '')
    throw new WorkerOptionError('key', key, 'a non-empty string naming the limit');
  if (!Number.isInteger(max) || max < 1 || max > 10_000)
    throw new WorkerOptionError('max', max, 'an integer from 1 to 10000');
  const waitTimeoutMs = options.waitTimeoutMs ?? 600_000;
  if (!Number.isFinite(waitTimeoutMs) || waitTimeoutMs < 0 || waitTimeoutMs > 2 ** 31 - 1)
    throw new WorkerOptionError(
      'waitTimeoutMs',
      options.waitTimeoutMs,
      'milliseconds from 0 to 2^31 - 1',
    );
  // One connection per slot this process can hold, plus one to look for a free slot.
  const queue = resolveQueue(options, max + 1);
  const listener = new ListenConnection(queue.clientConfig, (error) =>
    queue.log('warning', `concurrency limit "${key}": LISTEN failed: ${error.message}`),
  );
  const semaphore = new PostgresSemaphore({
    pool: queue.pool,
    listener,
    key,
    max,
    waitTimeoutMs,
    retryMs: 1_000,
  });
  return {
    name: llm.name,
    async generate(request: LLMRequest, callOptions?: LLMCallOptions): Promise<LLMResponse> {
      const slot = await semaphore.acquire(callOptions?.signal);
      try {
        return await llm.generate(request, callOptions);
      } finally {
        await slot.release();
      }
    },
    async close() {
      await listener.close();
      if (queue.ownsPool) await queue.pool.end();
    },
  };
}
