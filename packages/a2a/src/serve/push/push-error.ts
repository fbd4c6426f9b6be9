import { ProviderError } from '@skein/spec';

/** `A2A_PUSH_UNDELIVERED`: a push notification was given up on (option `onPushError` hears it). */
export type A2APushErrorCode = 'A2A_PUSH_UNDELIVERED';

export interface A2APushErrorFacts {
  readonly taskId: string;
  /** The config it was for; absent when the task's configs could not be read. */
  readonly configId?: string;
  /** Where it was POSTed (the config's URL). */
  readonly url?: string;
  /** How many POSTs were made (0: none could be). */
  readonly attempts: number;
  /** The receiver's last HTTP status, when it answered. */
  readonly httpStatus?: number;
}

/**
 * A push notification that was not delivered: the receiver refused it (a 4xx other than 408 and
 * 429), or kept failing (network errors, 5xx, 408, 429) until the retries ran out, or the task's
 * configs could not be read from the store. The task is not affected: its turn went on.
 */
export class A2APushError extends ProviderError<A2APushErrorCode> {
  static override readonly errorName = 'A2APushError';
  declare readonly taskId: string;
  declare readonly configId?: string;
  declare readonly url?: string;
  declare readonly attempts: number;
  declare readonly httpStatus?: number;

  constructor(facts: A2APushErrorFacts, problem: string, options: { cause?: unknown } = {}) {
    const to = facts.url === undefined ? '' : ` to ${facts.url}`;
    super('A2A_PUSH_UNDELIVERED', `Push notification for task ${facts.taskId}${to}: ${problem}`, {
      ...options,
      facts,
    });
  }
}
