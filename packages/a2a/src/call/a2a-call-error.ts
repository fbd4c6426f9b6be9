import { ProviderError } from '@skein/spec';

/**
 * - `A2A_CALL_FAILED`: a request to the agent failed (unreachable, an HTTP error, a JSON-RPC
 *   error, an answer the SDK could not read);
 * - `A2A_AGENT_CARD_INVALID`: what was given or served as the agent card is not one.
 */
export type A2ACallErrorCode = 'A2A_CALL_FAILED' | 'A2A_AGENT_CARD_INVALID';

export interface A2ACallErrorFacts {
  /** The agent's card name, or its URL before the card is known. */
  readonly agent: string;
  /** What was being done: `agent card`, `SendMessage`, `GetTask`, `CancelTask`. */
  readonly operation: string;
  /** The JSON-RPC error code the agent answered with, when it sent one. */
  readonly rpcCode?: number;
  /** The HTTP status the agent answered with, when that is what failed. */
  readonly httpStatus?: number;
}

/**
 * Talking to a remote A2A agent failed. A remote agent is a remote server, so this is a
 * ProviderError: `retryable` is true for what can pass (the agent unreachable, a 5xx or 429, a
 * JSON-RPC internal error) and false for what will not (an unknown task, a malformed request).
 * A task the agent ran and reported as failed is not this error: it is an error tool result.
 */
export class A2ACallError extends ProviderError<A2ACallErrorCode> {
  static override readonly errorName = 'A2ACallError';
  declare readonly agent: string;
  declare readonly operation: string;
  declare readonly rpcCode?: number;
  declare readonly httpStatus?: number;

  constructor(
    code: A2ACallErrorCode,
    facts: A2ACallErrorFacts,
    problem: string,
    options: { cause?: unknown; retryable?: boolean } = {},
  ) {
    super(code, `A2A agent "${facts.agent}": ${facts.operation} failed: ${problem}`, {
      ...options,
      facts,
    });
  }
}
