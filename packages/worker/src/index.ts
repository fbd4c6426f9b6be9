export { MAX_THREAD_ID_LENGTH } from '@skein/spec';
export type { ConnectionOptions, QueueOptions } from './connection-options.js';
export { ConcurrencySlotTimeoutError } from './errors/concurrency-slot-timeout-error.js';
export { UnknownThreadError } from './errors/unknown-thread-error.js';
export { WorkerClosedError } from './errors/worker-closed-error.js';
export type { WorkerDatabaseCode } from './errors/worker-database-error.js';
export { WorkerDatabaseError } from './errors/worker-database-error.js';
export { WorkerOptionError } from './errors/worker-option-error.js';
export type { ToolCallScope } from './idempotency-keys.js';
export type { IfBusy, SentUserMessage } from './job-payload.js';
export type { ConcurrencyLimitOptions, LimitedLLMClient } from './limit-concurrency.js';
export { limitConcurrency } from './limit-concurrency.js';
export type { RateBudgetOptions } from './postgres-rate-budget.js';
export { createRateBudget, PostgresRateBudget } from './postgres-rate-budget.js';
export type { JobOutcome } from './run-thread-job.js';
export type { WorkerOptions } from './skein-worker.js';
export { createWorker, SkeinWorker } from './skein-worker.js';
export type {
  CallerOptions,
  EnqueueOptions,
  SendMessageOptions,
  Unsubscribe,
  WorkerClientOptions,
} from './worker-client.js';
export { createWorkerClient, WorkerClient } from './worker-client.js';
export type { ForwardedEventName, WorkerEvent, WorkerEventListener } from './worker-event.js';
export { FORWARDED_EVENTS } from './worker-event.js';
