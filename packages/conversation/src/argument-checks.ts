import { type LLMMessage, ROLES, type TokenUsage } from '@skein/spec';
import type {
  FilterOperation,
  SummarizeOperation,
  TruncateOperation,
} from './context-operations.js';
import type { ConversationCursor } from './conversation-log.js';
import { ConversationError } from './errors/conversation-error.js';
import { InvalidArgumentError } from './errors/invalid-argument-error.js';

// Checks of what callers hand the manager. Each returns the value to use (copied where the caller
// keeps a reference) or throws a typed error naming the argument, before any state changes.

const ROLE_SET: ReadonlySet<unknown> = new Set(ROLES);

/** A value for an error message; never throws (JSON.stringify does on a BigInt or a cycle). */
export function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object' && value !== null) return 'an object';
  if (typeof value === 'function') return 'a function';
  return String(value);
}

/** A context operation must at least be an object to be dispatched on its `type`. */
export function checkOperation(op: unknown): void {
  if (typeof op !== 'object' || op === null)
    throw new InvalidArgumentError('operation', 'operation must be an object');
}

/** An operation `type` (or BATCH_MANAGEMENT `action`) that does not exist. */
export function unknownOperation(field: string, value: unknown): InvalidArgumentError {
  const allowed =
    field === 'operation.type'
      ? 'TRUNCATE, INSERT, REPLACE, CLEAR, FILTER, SUMMARIZE, BATCH_MANAGEMENT'
      : 'start, rollback';
  return new InvalidArgumentError(
    field,
    `unknown context operation ${field === 'operation.type' ? 'type' : 'action'} ${show(value)}; allowed: ${allowed}`,
  );
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

export function checkCount(value: unknown, argument: string): number {
  if (!isCount(value))
    throw new InvalidArgumentError(
      argument,
      `${argument} must be a non-negative integer, got ${show(value)}`,
      { value },
    );
  return value;
}

/** An optional boolean: `undefined` gives `fallback`, anything but a boolean is refused. */
export function checkBoolean(value: unknown, argument: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean')
    throw new InvalidArgumentError(
      argument,
      `${argument} must be true or false, got ${show(value)}`,
    );
  return value;
}

function checkFunction(value: unknown, argument: string): void {
  if (value !== undefined && typeof value !== 'function')
    throw new InvalidArgumentError(argument, `${argument} must be a function, got ${show(value)}`);
}

export function checkUsage(usage: unknown): TokenUsage {
  const u = usage as Record<string, unknown> | null;
  if (typeof u !== 'object' || u === null)
    throw new InvalidArgumentError('usage', 'usage must be an object');
  for (const key of ['promptTokens', 'completionTokens', 'totalTokens']) {
    const v = u[key];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
      throw new InvalidArgumentError(`usage.${key}`, `usage.${key} must be a non-negative number`);
  }
  const { promptTokens, completionTokens, totalTokens } = u as unknown as TokenUsage;
  return { promptTokens, completionTokens, totalTokens };
}

/** A batch boundary: a storage position `0..total` (the original design's meaning). */
export function checkBoundary(boundary: unknown, total: number): number {
  if (boundary === undefined) return total;
  if (!isCount(boundary) || boundary > total)
    throw ConversationError.invalidBoundary(boundary, total);
  return boundary;
}

/** A batch of the current stack, `0..count - 1`. */
export function checkBatch(batch: unknown, count: number): number {
  if (!Number.isInteger(batch) || (batch as number) < 0 || (batch as number) >= count)
    throw ConversationError.unknownBatch(batch, count);
  return batch as number;
}

/** Distinct stored positions, as a new array (holes, non-integers and repeats are refused). */
export function checkIndices(indices: unknown, total: number): number[] {
  if (!Array.isArray(indices))
    throw new InvalidArgumentError('indices', 'indices must be an array of stored positions');
  const seen = new Set<number>();
  const out: number[] = [];
  for (let i = 0; i < indices.length; i++) {
    const argument = `indices[${i}]`;
    if (!(i in indices))
      throw new InvalidArgumentError(argument, `${argument} is a hole in a sparse array`);
    const p: unknown = indices[i];
    if (!isCount(p) || p >= total)
      throw new InvalidArgumentError(
        argument,
        `${argument} = ${show(p)} is not a stored position 0..${total - 1}`,
      );
    if (seen.has(p)) throw new InvalidArgumentError(argument, `${argument} repeats position ${p}`);
    seen.add(p);
    out.push(p);
  }
  return out;
}

export function checkCursor(cursor: unknown, messages: number, log: number): ConversationCursor {
  const c = (typeof cursor === 'object' && cursor !== null ? cursor : {}) as Record<
    string,
    unknown
  >;
  if (!isCount(c.messages) || !isCount(c.log) || c.messages > messages || c.log > log)
    throw new InvalidArgumentError(
      'cursor',
      `cursor must be { messages: 0..${messages}, log: 0..${log} } as cursor() returns, got { messages: ${show(c.messages)}, log: ${show(c.log)} }`,
    );
  // A frozen cursor (as `cursor()` returns) cannot change later; any other is copied.
  return Object.isFrozen(cursor)
    ? (cursor as ConversationCursor)
    : { messages: c.messages, log: c.log };
}

export interface CheckedTruncate {
  readonly preserveSystem: boolean;
  readonly byTokens?: { readonly maxTokens: number; readonly counter?: (m: LLMMessage) => number };
  readonly byCount?: { readonly keep: 'first' | 'last'; readonly count: number };
}

export function checkTruncate(op: TruncateOperation): CheckedTruncate {
  const preserveSystem = checkBoolean(op.preserveSystem, 'preserveSystem', true);
  if ('maxTokens' in op) {
    checkFunction(op.tokenCounter, 'tokenCounter');
    const maxTokens = checkCount(op.maxTokens, 'maxTokens');
    return {
      preserveSystem,
      byTokens: op.tokenCounter ? { maxTokens, counter: op.tokenCounter } : { maxTokens },
    };
  }
  const count = checkCount(op.count, 'count');
  if (op.keep !== 'first' && op.keep !== 'last')
    throw new InvalidArgumentError('keep', `keep must be "first" or "last", got ${show(op.keep)}`);
  return { preserveSystem, byCount: { keep: op.keep, count } };
}

export function checkFilter(op: FilterOperation): void {
  if (op.mode !== undefined && op.mode !== 'keep' && op.mode !== 'remove')
    throw new InvalidArgumentError('mode', `mode must be "keep" or "remove", got ${show(op.mode)}`);
  if (op.roles !== undefined) {
    const roles: readonly unknown[] = op.roles;
    if (!Array.isArray(roles))
      throw new InvalidArgumentError('roles', 'roles must be an array of roles');
    for (let i = 0; i < roles.length; i++)
      if (!ROLE_SET.has(roles[i]))
        throw new InvalidArgumentError(
          `roles[${i}]`,
          `roles[${i}] = ${show(roles[i])} is not one of ${ROLES.join(', ')}`,
        );
  }
  const metadata: unknown = op.metadata;
  if (metadata !== undefined && (typeof metadata !== 'object' || metadata === null))
    throw new InvalidArgumentError('metadata', 'metadata must be an object of values to match');
  checkFunction(op.predicate, 'predicate');
}

/** Constructor options: each must be a function when given; an observer, an object with two. */
export function checkOptions(options: unknown): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null)
    throw new InvalidArgumentError('options', 'options must be an object');
  const o = options as Record<string, unknown>;
  for (const key of ['initialTools', 'formatToolDescription', 'tokenCounter'])
    checkFunction(o[key], key);
  const max = o.maxAttachmentBytes;
  if (
    max !== undefined &&
    max !== Number.POSITIVE_INFINITY &&
    !(typeof max === 'number' && Number.isSafeInteger(max) && max >= 0)
  )
    throw new InvalidArgumentError(
      'maxAttachmentBytes',
      `maxAttachmentBytes must be a whole number of bytes, 0 or more (or Infinity), got ${show(max)}`,
    );
  const observer = o.observer as Record<string, unknown> | null | undefined;
  if (observer === undefined) return;
  if (typeof observer !== 'object' || observer === null)
    throw new InvalidArgumentError('observer', 'observer must be an object with wants and notify');
  for (const key of ['wants', 'notify'])
    if (typeof observer[key] !== 'function')
      throw new InvalidArgumentError(
        `observer.${key}`,
        `observer.${key} must be a function, got ${show(observer[key])}`,
      );
}

/** A SUMMARIZE checked: its summary text, the turns it keeps and the summary's role. */
export function checkSummarize(op: SummarizeOperation): Required<Omit<SummarizeOperation, 'type'>> {
  if (typeof op.summary !== 'string' || op.summary.trim() === '')
    throw new InvalidArgumentError(
      'operation.summary',
      `operation.summary must be a non-empty string, got ${show(op.summary)}`,
    );
  const keepTurns =
    op.keepTurns === undefined ? 0 : checkCount(op.keepTurns, 'operation.keepTurns');
  const role = op.role ?? 'user';
  if (role !== 'user' && role !== 'system')
    throw new InvalidArgumentError(
      'operation.role',
      `operation.role must be "user" or "system", got ${show(role)}`,
    );
  return { summary: op.summary, keepTurns, role };
}
