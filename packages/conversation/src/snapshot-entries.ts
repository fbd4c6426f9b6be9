import type { TokenUsage } from '@skein/spec';
import type { ConversationLogEntry, RestoredBatch } from './conversation-log.js';
import type { ConversationState } from './conversation-state.js';
import { ConversationError } from './errors/conversation-error.js';

// Checks one stored log entry and returns a fresh copy of it: a restored manager must share no
// object with the snapshot it came from, or whoever holds the snapshot could rewrite its history.

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function copyUsage(value: unknown, field: string): TokenUsage {
  if (!isObject(value)) throw ConversationError.invalidSnapshot(field, 'must be an object');
  for (const key of ['promptTokens', 'completionTokens', 'totalTokens'] as const) {
    if (typeof value[key] !== 'number' || !Number.isFinite(value[key]))
      throw ConversationError.invalidSnapshot(`${field}.${key}`, 'must be a finite number');
  }
  const { promptTokens, completionTokens, totalTokens } = value as unknown as TokenUsage;
  return { promptTokens, completionTokens, totalTokens };
}

function copyLive(value: unknown, field: string, limit: number): number[] {
  if (!Array.isArray(value)) throw ConversationError.invalidSnapshot(field, 'must be an array');
  const seen = new Set<number>();
  const out: number[] = [];
  // A plain loop: forEach() skips holes and would let a sparse list through.
  for (let i = 0; i < value.length; i++) {
    const p: unknown = value[i];
    if (!isCount(p) || p >= limit)
      throw ConversationError.invalidSnapshot(
        `${field}[${i}]`,
        `must be a stored position below ${limit}`,
      );
    if (seen.has(p))
      throw ConversationError.invalidSnapshot(`${field}[${i}]`, `repeats position ${p}`);
    seen.add(p);
    out.push(p);
  }
  return out;
}

function checkFlag(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean')
    throw ConversationError.invalidSnapshot(field, 'must be a boolean');
  return value;
}

function copyBatches(value: unknown, field: string, limit: number): RestoredBatch[] {
  if (!Array.isArray(value) || value.length === 0)
    throw ConversationError.invalidSnapshot(field, 'must be a non-empty array');
  const out: RestoredBatch[] = [];
  for (let i = 0; i < value.length; i++) {
    const where = `${field}[${i}]`;
    const b: unknown = value[i];
    if (!isObject(b)) throw ConversationError.invalidSnapshot(where, 'must be an object');
    const live = copyLive(b.live, `${where}.live`, limit);
    const withInitialTools = checkFlag(b.withInitialTools, `${where}.withInitialTools`);
    if (!isCount(b.startedAt) || b.startedAt > limit)
      throw ConversationError.invalidSnapshot(
        `${where}.startedAt`,
        'must be a stored-message count',
      );
    const usage = copyUsage(b.usage, `${where}.usage`);
    out.push({ live, withInitialTools, startedAt: b.startedAt, usage });
  }
  return out;
}

/** Checks a log entry against the state it will be applied to; returns a copy to apply. */
export function copyEntry(
  raw: Record<string, unknown>,
  field: string,
  state: ConversationState,
): ConversationLogEntry {
  const limit = state.messages.length;
  const at = raw.at as number;
  const stored = raw.stored === undefined ? {} : { stored: raw.stored as number };
  switch (raw.op) {
    case 'view':
      return { op: 'view', at, live: copyLive(raw.live, `${field}.live`, limit), ...stored };
    case 'batch':
      return {
        op: 'batch',
        at,
        live: copyLive(raw.live, `${field}.live`, limit),
        withInitialTools: checkFlag(raw.withInitialTools, `${field}.withInitialTools`),
        ...stored,
      };
    case 'rollback':
      if (!isCount(raw.batch) || raw.batch >= state.batches.length)
        throw ConversationError.invalidSnapshot(
          `${field}.batch`,
          `must name an existing batch 0..${state.batches.length - 1}`,
        );
      return { op: 'rollback', at, batch: raw.batch, ...stored };
    case 'usage':
      return { op: 'usage', at, usage: copyUsage(raw.usage, `${field}.usage`), ...stored };
    case 'restore':
      return {
        op: 'restore',
        at,
        batches: copyBatches(raw.batches, `${field}.batches`, limit),
        ...stored,
      };
    default:
      throw ConversationError.invalidSnapshot(
        `${field}.op`,
        `unknown operation ${typeof raw.op === 'string' ? JSON.stringify(raw.op) : String(raw.op)}`,
      );
  }
}
