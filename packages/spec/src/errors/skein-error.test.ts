import { describe, expect, expectTypeOf, it } from 'vitest';
import { CheckpointConflictError } from './checkpoint-conflict-error.js';
import { CheckpointNotFoundError } from './checkpoint-not-found-error.js';
import { InvalidArgumentError } from './invalid-argument-error.js';
import { SkeinError } from './skein-error.js';
import { ThreadConflictError } from './thread-conflict-error.js';
import { ToolExecutionError } from './tool-execution-error.js';
import { ToolTimeoutError } from './tool-timeout-error.js';

/** Builds, by hand, what an error from a second copy of @skein/spec looks like to this copy. */
function fromAnotherCopy(name: string, code: string): Error {
  class Copy extends Error {
    readonly code = code;
    readonly retryable = false;
  }
  Object.defineProperty(Copy.prototype, Symbol.for('skein.error'), { value: true });
  Object.defineProperty(Copy.prototype, Symbol.for(`skein.error.${name}`), { value: true });
  return new Copy('from another copy');
}

describe('SkeinError', () => {
  it('isInstance holds for the class and its subclasses, never for a sibling', () => {
    const arg = new InvalidArgumentError('count', 'bad count');
    expect(SkeinError.isInstance(arg)).toBe(true);
    expect(InvalidArgumentError.isInstance(arg)).toBe(true);
    expect(ToolTimeoutError.isInstance(arg)).toBe(false);
    expect(ToolExecutionError.isInstance(new ToolTimeoutError('t', 5))).toBe(false);
    expect(InvalidArgumentError.isInstance(new Error('x'))).toBe(false);
    expect(InvalidArgumentError.isInstance(null)).toBe(false);
    expect(InvalidArgumentError.isInstance('INVALID_ARGUMENT')).toBe(false);
  });

  it('isInstance holds for a subclass of a subclass, and for a user subclass by its name', () => {
    class RateLimited extends ToolExecutionError<'RATE_LIMITED'> {
      constructor() {
        super('slow down', { code: 'RATE_LIMITED', retryable: true });
      }
    }
    const error = new RateLimited();
    expect(ToolExecutionError.isInstance(error)).toBe(true);
    expect(RateLimited.isInstance(error)).toBe(true);
    expect(RateLimited.isInstance(new ToolExecutionError('x'))).toBe(false);
    expect(error.name).toBe('RateLimited');
  });

  it('isInstance works across two copies of the package, where instanceof does not', () => {
    const foreign = fromAnotherCopy('CheckpointConflictError', 'CHECKPOINT_CONFLICT');
    expect(foreign instanceof CheckpointConflictError).toBe(false);
    expect(CheckpointConflictError.isInstance(foreign)).toBe(true);
    expect(SkeinError.isInstance(foreign)).toBe(true);
    expect(CheckpointNotFoundError.isInstance(foreign)).toBe(false);
    expect(SkeinError.hasCode(foreign, 'CHECKPOINT_CONFLICT')).toBe(true);
  });

  it('names errors after the class, whatever a minifier does to class names', () => {
    expect(new InvalidArgumentError('a', 'b').name).toBe('InvalidArgumentError');
    expect(new SkeinError('X', 'y').name).toBe('SkeinError');
  });

  it('retryable defaults to false; isRetryable trusts SkeinErrors and flags, retries the rest', () => {
    expect(new SkeinError('X', 'y').retryable).toBe(false);
    expect(new SkeinError('X', 'y', { retryable: true }).retryable).toBe(true);
    expect(new ToolTimeoutError('t', 1).retryable).toBe(true);
    expect(new InvalidArgumentError('a', 'b').retryable).toBe(false);
    expect(SkeinError.isRetryable(new ToolTimeoutError('t', 1))).toBe(true);
    expect(SkeinError.isRetryable(new InvalidArgumentError('a', 'b'))).toBe(false);
    expect(SkeinError.isRetryable({ retryable: false })).toBe(false);
    expect(SkeinError.isRetryable(new Error('network'))).toBe(true);
  });

  it('hasCode checks the code and narrows it', () => {
    const error: unknown = new ToolTimeoutError('t', 1);
    expect(SkeinError.hasCode(error, 'TOOL_TIMEOUT')).toBe(true);
    expect(SkeinError.hasCode(error, 'TOOL_FAILED')).toBe(false);
    expect(SkeinError.hasCode(new Error('x'), 'TOOL_TIMEOUT')).toBe(false);
    if (SkeinError.hasCode(error, 'TOOL_TIMEOUT'))
      expectTypeOf(error.code).toEqualTypeOf<'TOOL_TIMEOUT'>();
  });

  it('gives each class a literal code, and typed facts beside details', () => {
    const conflict = new CheckpointConflictError(
      't1',
      { messages: 2, log: 3 },
      { messages: 1, log: 1 },
    );
    expectTypeOf(conflict.code).toEqualTypeOf<'CHECKPOINT_CONFLICT'>();
    expect(conflict.threadId).toBe('t1');
    expect(conflict.expected).toEqual({ messages: 2, log: 3 });
    expect(conflict.details).toMatchObject({ threadId: 't1' });
    expectTypeOf(new ToolExecutionError('x').code).toEqualTypeOf<'TOOL_FAILED'>();
    expectTypeOf(new ToolExecutionError('x', { code: 'QUOTA' }).code).toEqualTypeOf<'QUOTA'>();
    expect(new ToolExecutionError('x').code).toBe('TOOL_FAILED');
    const timeout: unknown = new ToolTimeoutError('slow', 10);
    if (ToolTimeoutError.isInstance(timeout))
      expectTypeOf(timeout.timeoutMs).toEqualTypeOf<number>();
  });
});

describe('SkeinError.isInstance called unbound', () => {
  it('answers for the base class', () => {
    const values: unknown[] = [new ToolTimeoutError('t', 1), new Error('x')];
    expect(values.filter(SkeinError.isInstance)).toHaveLength(1);
  });
});

describe('the kind classes', () => {
  it('tell their kind apart, carry their code and retryable, and are SkeinErrors', async () => {
    const { NotFoundError, ProviderError, StoreError } = await import('./kind-errors.js');
    const missing = new NotFoundError('WORKFLOW_NOT_FOUND', 'no workflow "w"', {
      details: { id: 'w' },
    });
    const busy = new StoreError('STORE_BUSY', 'database is locked', { retryable: true });
    const limited = new ProviderError('RATE_LIMITED', '429', { retryable: true });
    expect(NotFoundError.isInstance(missing)).toBe(true);
    expect(StoreError.isInstance(missing)).toBe(false);
    expect(StoreError.isInstance(busy)).toBe(true);
    expect(ProviderError.isInstance(limited)).toBe(true);
    expect(SkeinError.isInstance(limited)).toBe(true);
    expect(missing).toMatchObject({
      code: 'WORKFLOW_NOT_FOUND',
      name: 'NotFoundError',
      details: { id: 'w' },
    });
    expect(busy.retryable).toBe(true);
    expect(SkeinError.isRetryable(limited)).toBe(true);
  });
});

describe('the errors of a kind', () => {
  it('a checkpoint not found is a NotFoundError, with its own code and fields', async () => {
    const { NotFoundError } = await import('./kind-errors.js');
    const missing = new CheckpointNotFoundError('t1', 'c9');
    expect(NotFoundError.isInstance(missing)).toBe(true);
    expect(CheckpointNotFoundError.isInstance(missing)).toBe(true);
    expect(missing).toMatchObject({
      code: 'CHECKPOINT_NOT_FOUND',
      name: 'CheckpointNotFoundError',
      threadId: 't1',
      checkpointId: 'c9',
      details: { threadId: 't1', checkpointId: 'c9' },
    });
    expect(CheckpointNotFoundError.isInstance(new NotFoundError('X_NOT_FOUND', 'x'))).toBe(false);
  });

  it('a thread or checkpoint conflict is a ConflictError; the two stay apart', async () => {
    const { ConflictError, NotFoundError } = await import('./kind-errors.js');
    const claimed = new ThreadConflictError('RESUME_CONFLICT', 't1', 'claimed first');
    const stale = new CheckpointConflictError(
      't1',
      { messages: 1, log: 1 },
      { messages: 2, log: 2 },
    );
    for (const conflict of [claimed, stale]) {
      expect(ConflictError.isInstance(conflict)).toBe(true);
      expect(NotFoundError.isInstance(conflict)).toBe(false);
    }
    expect(ThreadConflictError.isInstance(stale)).toBe(false);
    expect(CheckpointConflictError.isInstance(claimed)).toBe(false);
    expect(ConflictError.isInstance(new CheckpointNotFoundError('t1'))).toBe(false);
    expect(claimed).toMatchObject({ code: 'RESUME_CONFLICT', threadId: 't1' });
    expect(stale).toMatchObject({ code: 'CHECKPOINT_CONFLICT', threadId: 't1' });
    expect(new ConflictError('BUSY', 'taken').name).toBe('ConflictError');
  });
});
