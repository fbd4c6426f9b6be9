import type { LLMMessage } from '@skein/spec';
import { SkeinError } from '@skein/spec';
import { show } from './argument-checks.js';
import type {
  ConversationCursor,
  ConversationLogEntry,
  RestoredBatch,
} from './conversation-log.js';
import { ConversationState } from './conversation-state.js';
import { ConversationError } from './errors/conversation-error.js';
import { normalizeMessage } from './message-validation.js';
import { copyEntry, isCount, isObject } from './snapshot-entries.js';

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

const STORED = { maxAttachmentBytes: Number.POSITIVE_INFINITY };

function normalizeStored(raw: unknown, field: string, trusted: boolean): LLMMessage {
  if (trusted) return raw as LLMMessage;
  try {
    // Taken once under whatever limit applied then: a stored attachment is not measured again.
    return normalizeMessage(raw, field, STORED);
  } catch (error) {
    if (SkeinError.isInstance(error)) {
      const where = typeof error.details.field === 'string' ? error.details.field : field;
      throw ConversationError.invalidSnapshot(where, error.message);
    }
    throw error;
  }
}

/**
 * Replays a snapshot into a fresh state, checking every field on the way; the first problem is a
 * `ConversationError` (`INVALID_SNAPSHOT`) naming the field (`messages[3].role`, `log[2].live[0]`,
 * …). `trusted` skips re-checking messages that a manager already stored (they are checked and
 * frozen).
 */
export function replaySnapshot(snapshot: unknown, trusted = false): ConversationState {
  if (!isObject(snapshot)) throw ConversationError.invalidSnapshot('snapshot', 'must be an object');
  if (snapshot.version !== SNAPSHOT_VERSION)
    throw ConversationError.invalidSnapshot(
      'version',
      `must be ${SNAPSHOT_VERSION}, got ${show(snapshot.version)}`,
    );
  const { messages, log } = snapshot;
  if (!Array.isArray(messages))
    throw ConversationError.invalidSnapshot('messages', 'must be an array');
  if (!Array.isArray(log)) throw ConversationError.invalidSnapshot('log', 'must be an array');

  const state = new ConversationState();
  let cursor = 0;
  // Plain loops: forEach() skips holes, and a hole must be refused like any other bad entry.
  for (let i = 0; i < log.length; i++) {
    const field = `log[${i}]`;
    const raw: unknown = log[i];
    if (!isObject(raw)) throw ConversationError.invalidSnapshot(field, 'must be an object');
    const at = raw.at;
    const stored = raw.stored ?? 0;
    if (!isCount(at) || at < cursor || at > messages.length)
      throw ConversationError.invalidSnapshot(
        `${field}.at`,
        `must be a message count between ${cursor} and ${messages.length}`,
      );
    if (!isCount(stored) || at + stored > messages.length)
      throw ConversationError.invalidSnapshot(`${field}.stored`, 'points past the stored messages');
    while (cursor < at)
      state.append(normalizeStored(messages[cursor], `messages[${cursor++}]`, trusted));
    for (let k = 0; k < stored; k++)
      state.store(normalizeStored(messages[cursor], `messages[${cursor++}]`, trusted));
    state.apply(copyEntry(raw, field, state));
  }
  while (cursor < messages.length)
    state.append(normalizeStored(messages[cursor], `messages[${cursor++}]`, trusted));
  return state;
}

/** What `state` stored and logged from `from` on (the whole conversation from 0 / 0). */
export function deltaOf(state: ConversationState, from: ConversationCursor): ConversationSnapshot {
  return {
    version: SNAPSHOT_VERSION,
    messages: state.messages.slice(from.messages),
    log: state.log.slice(from.log),
  };
}

/** The batch stack `state` had at `cursor`, as a `restore` entry holds it (replays the log). */
export function batchesAt(state: ConversationState, cursor: ConversationCursor): RestoredBatch[] {
  const past = replaySnapshot(
    {
      version: SNAPSHOT_VERSION,
      messages: state.messages.slice(0, cursor.messages),
      log: state.log.slice(0, cursor.log),
    },
    true,
  );
  return past.batches.map((b) => ({
    live: b.live.slice(),
    withInitialTools: b.withInitialTools,
    startedAt: b.startedAt,
    usage: { ...b.usage },
  }));
}

function appendAll<T>(into: T[], from: readonly T[]): void {
  // push(...array) overflows the stack for large deltas.
  for (let i = 0; i < from.length; i++) into.push(from[i]!);
}

/** Checks `messages` and `log` of a snapshot-like value (their contents are checked by restore). */
function checkArrays(
  value: Record<string, unknown>,
  field: string,
): { messages: readonly LLMMessage[]; log: readonly ConversationLogEntry[] } {
  const { messages, log } = value;
  if (!Array.isArray(messages))
    throw ConversationError.invalidSnapshot(`${field}.messages`, 'must be an array');
  if (!Array.isArray(log))
    throw ConversationError.invalidSnapshot(`${field}.log`, 'must be an array');
  return { messages, log };
}

/**
 * Joins a base snapshot and deltas saved after it (in order) into one snapshot. The shape is
 * checked here (each delta must start where the previous one ended); the messages and entries
 * themselves are checked when the result is restored.
 */
export function applyDeltas(
  base: ConversationSnapshot | undefined,
  deltas: readonly ConversationDelta[],
): ConversationSnapshot {
  const messages: LLMMessage[] = [];
  const log: ConversationLogEntry[] = [];
  if (base !== undefined) {
    if (!isObject(base))
      throw ConversationError.invalidSnapshot(
        'base',
        'must be a conversation snapshot or undefined',
      );
    if (base.version !== SNAPSHOT_VERSION)
      throw ConversationError.invalidSnapshot('base.version', `must be ${SNAPSHOT_VERSION}`);
    const arrays = checkArrays(base, 'base');
    appendAll(messages, arrays.messages);
    appendAll(log, arrays.log);
  }
  if (!Array.isArray(deltas))
    throw ConversationError.invalidSnapshot('deltas', 'must be an array of conversation deltas');
  for (let i = 0; i < deltas.length; i++) {
    const where = `deltas[${i}]`;
    const delta: unknown = deltas[i];
    if (!isObject(delta))
      throw ConversationError.invalidSnapshot(where, 'must be a conversation delta');
    if (delta.version !== SNAPSHOT_VERSION)
      throw ConversationError.invalidSnapshot(`${where}.version`, `must be ${SNAPSHOT_VERSION}`);
    const from = delta.from;
    if (!isObject(from) || !isCount(from.messages) || !isCount(from.log))
      throw ConversationError.invalidSnapshot(`${where}.from`, 'must be { messages, log } counts');
    const arrays = checkArrays(delta, where);
    if (from.messages !== messages.length || from.log !== log.length)
      throw ConversationError.invalidSnapshot(
        `${where}.from`,
        `starts at ${from.messages} messages / ${from.log} log entries but the conversation so far has ${messages.length} / ${log.length}`,
      );
    appendAll(messages, arrays.messages);
    appendAll(log, arrays.log);
  }
  return { version: SNAPSHOT_VERSION, messages, log };
}
