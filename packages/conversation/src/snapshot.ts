import type { ConversationLogEntry } from './conversation-log.js';
import { ConversationState } from './conversation-state.js';
import { InvalidSnapshotError } from './errors/invalid-snapshot-error.js';
import { SkeinError } from './errors/skein-error.js';
import { normalizeMessage } from './message-validation.js';
import type { LLMMessage, TokenUsage } from './types.js';

export const SNAPSHOT_VERSION = 1;

/** A whole conversation as plain JSON: every stored message and the log of view changes. */
export interface ConversationSnapshot {
  readonly version: typeof SNAPSHOT_VERSION;
  readonly messages: readonly LLMMessage[];
  readonly log: readonly ConversationLogEntry[];
}

/** The part of a conversation added after a cursor: what an incremental checkpoint stores. */
export interface ConversationDelta {
  readonly version: typeof SNAPSHOT_VERSION;
  /** Stored-message count and log length the delta starts from. */
  readonly from: { readonly messages: number; readonly log: number };
  readonly messages: readonly LLMMessage[];
  readonly log: readonly ConversationLogEntry[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function checkUsage(value: unknown, field: string): TokenUsage {
  if (!isObject(value)) throw new InvalidSnapshotError(field, 'must be an object');
  for (const key of ['promptTokens', 'completionTokens', 'totalTokens'] as const) {
    if (typeof value[key] !== 'number' || !Number.isFinite(value[key]))
      throw new InvalidSnapshotError(`${field}.${key}`, 'must be a finite number');
  }
  return value as unknown as TokenUsage;
}

function checkLive(value: unknown, field: string, limit: number): readonly number[] {
  if (!Array.isArray(value)) throw new InvalidSnapshotError(field, 'must be an array');
  const seen = new Set<number>();
  value.forEach((p, i) => {
    if (!isCount(p) || p >= limit)
      throw new InvalidSnapshotError(`${field}[${i}]`, `must be a stored position below ${limit}`);
    if (seen.has(p)) throw new InvalidSnapshotError(`${field}[${i}]`, `repeats position ${p}`);
    seen.add(p);
  });
  return value as number[];
}

/** Checks one log entry against the state it will be applied to. */
function checkEntry(raw: unknown, field: string, state: ConversationState): ConversationLogEntry {
  if (!isObject(raw)) throw new InvalidSnapshotError(field, 'must be an object');
  const limit = state.messages.length;
  switch (raw.op) {
    case 'view':
      checkLive(raw.live, `${field}.live`, limit);
      return raw as unknown as ConversationLogEntry;
    case 'batch':
      checkLive(raw.live, `${field}.live`, limit);
      if (typeof raw.withInitialTools !== 'boolean')
        throw new InvalidSnapshotError(`${field}.withInitialTools`, 'must be a boolean');
      return raw as unknown as ConversationLogEntry;
    case 'rollback':
      if (!isCount(raw.batch) || raw.batch >= state.batches.length)
        throw new InvalidSnapshotError(
          `${field}.batch`,
          `must name an existing batch 0..${state.batches.length - 1}`,
        );
      return raw as unknown as ConversationLogEntry;
    case 'usage':
      checkUsage(raw.usage, `${field}.usage`);
      return raw as unknown as ConversationLogEntry;
    case 'restore':
      if (!Array.isArray(raw.batches) || raw.batches.length === 0)
        throw new InvalidSnapshotError(`${field}.batches`, 'must be a non-empty array');
      raw.batches.forEach((b: unknown, i: number) => {
        const where = `${field}.batches[${i}]`;
        if (!isObject(b)) throw new InvalidSnapshotError(where, 'must be an object');
        checkLive(b.live, `${where}.live`, limit);
        if (typeof b.withInitialTools !== 'boolean')
          throw new InvalidSnapshotError(`${where}.withInitialTools`, 'must be a boolean');
        if (!isCount(b.startedAt) || b.startedAt > limit)
          throw new InvalidSnapshotError(`${where}.startedAt`, 'must be a stored-message count');
        checkUsage(b.usage, `${where}.usage`);
      });
      return raw as unknown as ConversationLogEntry;
    default:
      throw new InvalidSnapshotError(`${field}.op`, `unknown operation ${JSON.stringify(raw.op)}`);
  }
}

function normalizeStored(raw: unknown, field: string): LLMMessage {
  try {
    return normalizeMessage(raw, field);
  } catch (error) {
    if (SkeinError.isInstance(error)) {
      const where = typeof error.details.field === 'string' ? error.details.field : field;
      throw new InvalidSnapshotError(where, error.message);
    }
    throw error;
  }
}

/**
 * Replays a snapshot into a fresh state, checking every field on the way; the first problem is an
 * `InvalidSnapshotError` naming the field (`messages[3].role`, `log[2].live[0]`, …).
 */
export function replaySnapshot(snapshot: unknown): ConversationState {
  if (!isObject(snapshot)) throw new InvalidSnapshotError('snapshot', 'must be an object');
  if (snapshot.version !== SNAPSHOT_VERSION)
    throw new InvalidSnapshotError(
      'version',
      `must be ${SNAPSHOT_VERSION}, got ${JSON.stringify(snapshot.version)}`,
    );
  const { messages, log } = snapshot;
  if (!Array.isArray(messages)) throw new InvalidSnapshotError('messages', 'must be an array');
  if (!Array.isArray(log)) throw new InvalidSnapshotError('log', 'must be an array');

  const state = new ConversationState();
  let cursor = 0;
  log.forEach((raw: unknown, i) => {
    const field = `log[${i}]`;
    if (!isObject(raw)) throw new InvalidSnapshotError(field, 'must be an object');
    const at = raw.at;
    const stored = raw.stored ?? 0;
    if (!isCount(at) || at < cursor || at > messages.length)
      throw new InvalidSnapshotError(
        `${field}.at`,
        `must be a message count between ${cursor} and ${messages.length}`,
      );
    if (!isCount(stored) || at + stored > messages.length)
      throw new InvalidSnapshotError(`${field}.stored`, 'points past the stored messages');
    while (cursor < at) state.append(normalizeStored(messages[cursor], `messages[${cursor++}]`));
    for (let k = 0; k < stored; k++)
      state.store(normalizeStored(messages[cursor], `messages[${cursor++}]`));
    state.apply(checkEntry(raw, field, state));
  });
  while (cursor < messages.length)
    state.append(normalizeStored(messages[cursor], `messages[${cursor++}]`));
  return state;
}

/** Joins a base snapshot and deltas saved after it (in order) into one snapshot. */
export function applyDeltas(
  base: ConversationSnapshot | undefined,
  deltas: readonly ConversationDelta[],
): ConversationSnapshot {
  const messages: LLMMessage[] = base ? [...base.messages] : [];
  const log: ConversationLogEntry[] = base ? [...base.log] : [];
  deltas.forEach((delta, i) => {
    if (!isObject(delta) || !isObject(delta.from))
      throw new InvalidSnapshotError(`deltas[${i}]`, 'must be a conversation delta');
    if (delta.from.messages !== messages.length || delta.from.log !== log.length)
      throw new InvalidSnapshotError(
        `deltas[${i}].from`,
        `starts at ${delta.from.messages} messages / ${delta.from.log} log entries but the conversation so far has ${messages.length} / ${log.length}`,
      );
    // push(...array) overflows the stack for large deltas.
    for (const message of delta.messages) messages.push(message);
    for (const entry of delta.log) log.push(entry);
  });
  return { version: SNAPSHOT_VERSION, messages, log };
}
