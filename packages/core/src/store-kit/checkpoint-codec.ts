import { SNAPSHOT_VERSION } from '@skein/conversation';
import {
  type ForkOrigin,
  findNonJsonValue,
  InvalidArgumentError,
  type LLMMessage,
  SkeinError,
} from '@skein/spec';
import {
  type AttachmentUse,
  extractAttachments,
  type StoredAttachment,
} from '../checkpoint/attachments.js';
import type { Checkpoint } from '../checkpoint/checkpoint-store.js';
import { describeValue } from './argument-checks.js';
import { stringifyExact } from './exact-json.js';
import { type StoreIdentity, storeUnserializable } from './store-errors.js';

/** A checkpoint checked and turned into column values, before any row is written. */
export interface EncodedCheckpoint {
  readonly id: string;
  readonly threadId: string;
  readonly sequence: number;
  readonly parentId: string | null;
  readonly createdAt: string;
  readonly workflowId: string;
  readonly workflowVersion: string;
  readonly status: string;
  readonly step: number;
  readonly currentNodeId: string | null;
  /** The lease owner the save is fenced by; undefined: no fence, no lease lookup. */
  readonly owner: string | undefined;
  readonly from: { readonly messages: number; readonly log: number };
  /** A fork's first checkpoint: whose conversation it continues (see `Checkpoint.forkOf`). */
  readonly forkOf: ForkOrigin | undefined;
  /** When the engine must wake the thread (epoch ms; see `Checkpoint.wakeAt`), or null. */
  readonly wakeAt: number | null;
  /** The outside event the thread waits for (see `Checkpoint.waitsFor`), or null. */
  readonly waitsFor: string | null;
  /** The inbox mark the save moves the thread's to (see `Checkpoint.inboxTaken`), or null. */
  readonly inboxTaken: number | null;
  /** Each new message as JSON text, in order (with `attachments`: inline media as refs). */
  readonly messages: readonly string[];
  /** With `attachments`: the new messages' inline media, once per digest, to write if missing. */
  readonly attachments: readonly StoredAttachment[];
  /** With `attachments`: the digests the new messages refer to, each at its first position. */
  readonly uses: readonly AttachmentUse[];
  /** Each new log entry as JSON text, in order. */
  readonly log: readonly string[];
  /** The thread state as JSON text. */
  readonly state: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function invalid(field: string, problem: string, value: unknown): never {
  const name = field ? `checkpoint.${field}` : 'checkpoint';
  throw new InvalidArgumentError(name, `${name} ${problem}, got ${describeValue(value)}`, {
    value,
  });
}

function text(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length === 0)
    invalid(field, 'must be a non-empty string', value);
  return value;
}

/** A fork's origin checked: only on a first checkpoint, naming another thread. */
function forkOrigin(
  value: unknown,
  threadId: string,
  sequence: number,
  parentId: unknown,
): ForkOrigin | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) return invalid('forkOf', 'must be { threadId, checkpointId }', value);
  const origin = {
    threadId: text(value.threadId, 'forkOf.threadId'),
    checkpointId: text(value.checkpointId, 'forkOf.checkpointId'),
  };
  if (sequence !== 1 || parentId !== undefined)
    invalid('forkOf', 'is for a first checkpoint only (sequence 1, no parentId)', value);
  if (origin.threadId === threadId)
    invalid('forkOf.threadId', 'must name another thread', origin.threadId);
  return origin;
}

interface Owner {
  readonly store: StoreIdentity;
  readonly threadId: string;
  readonly id: string;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * JSON text that parses back to exactly `value`. `JSON.stringify` alone would quietly turn NaN
 * into null, a Date into a string, -0 into 0, and drop `undefined` from arrays: a resumed thread
 * would then see other values than the ones that were saved.
 */
function toJson(value: unknown, field: string, owner: Owner): string {
  const path = `checkpoint.${field}`;
  try {
    const found = findNonJsonValue(value, path);
    if (found) throw storeUnserializable(owner.store, owner, found);
    return stringifyExact(value);
  } catch (error) {
    if (SkeinError.isInstance(error)) throw error;
    // A getter or proxy that throws while the value is read.
    throw storeUnserializable(
      owner.store,
      owner,
      { path, reason: `unreadable: reading it threw "${errorText(error)}"` },
      error,
    );
  }
}

/** How `encodeCheckpoint` treats the media of new messages. */
export interface EncodeOptions {
  /**
   * True for a store that keeps attachments (decision 0033): inline media become refs by digest
   * and their bytes are listed once in `attachments`. Otherwise messages keep their bytes inline
   * (as base64) and `attachments` and `uses` are empty.
   */
  readonly attachments?: boolean;
}

/**
 * Checks a checkpoint and serialises it: state, messages and log entries become JSON text. Run it
 * before the transaction, so a bad checkpoint is refused with nothing written: a malformed one
 * with `INVALID_ARGUMENT`, one holding a value JSON would change with `STORE_UNSERIALIZABLE`
 * (naming `store`).
 */
export function encodeCheckpoint(
  checkpoint: Checkpoint,
  store: StoreIdentity,
  options: EncodeOptions = {},
): EncodedCheckpoint {
  const raw: unknown = checkpoint;
  if (!isObject(raw)) return invalid('', 'must be an object', raw);
  const threadId = text(raw.threadId, 'threadId');
  const id = text(raw.id, 'id');
  const sequence = raw.sequence;
  if (!isCount(sequence) || sequence < 1) invalid('sequence', 'must be an integer >= 1', sequence);
  if (raw.parentId !== undefined) text(raw.parentId, 'parentId');
  if (raw.owner !== undefined) text(raw.owner, 'owner');
  const createdAt = text(raw.createdAt, 'createdAt');
  const state = raw.state;
  if (!isObject(state)) return invalid('state', 'must be an object', state);
  const workflowId = text(state.workflowId, 'state.workflowId');
  const workflowVersion = text(state.workflowVersion, 'state.workflowVersion');
  const status = text(state.status, 'state.status');
  if (!isCount(state.step)) invalid('state.step', 'must be an integer >= 0', state.step);
  if (state.currentNodeId !== undefined) text(state.currentNodeId, 'state.currentNodeId');
  const conversation = raw.conversation;
  if (!isObject(conversation)) return invalid('conversation', 'must be an object', conversation);
  if (conversation.version !== SNAPSHOT_VERSION)
    invalid('conversation.version', `must be ${SNAPSHOT_VERSION}`, conversation.version);
  const from = conversation.from;
  if (!isObject(from) || !isCount(from.messages) || !isCount(from.log))
    invalid('conversation.from', 'must be { messages, log } counts', from);
  const { messages, log } = conversation;
  if (!Array.isArray(messages))
    return invalid('conversation.messages', 'must be an array', messages);
  if (!Array.isArray(log)) return invalid('conversation.log', 'must be an array', log);
  const forkOf = forkOrigin(raw.forkOf, threadId, sequence as number, raw.parentId);
  const wakeAt = raw.wakeAt ?? null;
  if (wakeAt !== null && (typeof wakeAt !== 'number' || !Number.isFinite(wakeAt)))
    invalid('wakeAt', 'must be a finite number of epoch ms', wakeAt);
  const waitsFor = raw.waitsFor === undefined ? null : text(raw.waitsFor, 'waitsFor');
  const inboxTaken = raw.inboxTaken ?? null;
  if (inboxTaken !== null && !isCount(inboxTaken))
    invalid('inboxTaken', 'must be an integer >= 0', inboxTaken);
  const owner: Owner = { store, threadId, id };
  const extracted = options.attachments
    ? extractAttachments(messages as LLMMessage[], from.messages)
    : { messages: messages as LLMMessage[], attachments: [], uses: [] };
  return {
    id,
    threadId,
    sequence,
    parentId: (raw.parentId as string | undefined) ?? null,
    createdAt,
    workflowId,
    workflowVersion,
    status,
    step: state.step,
    currentNodeId: (state.currentNodeId as string | undefined) ?? null,
    owner: raw.owner as string | undefined,
    from: { messages: from.messages, log: from.log },
    forkOf,
    wakeAt: wakeAt as number | null,
    waitsFor,
    inboxTaken: inboxTaken as number | null,
    messages: extracted.messages.map((m, i) => toJson(m, `conversation.messages[${i}]`, owner)),
    attachments: extracted.attachments,
    uses: extracted.uses,
    log: log.map((e, i) => toJson(e, `conversation.log[${i}]`, owner)),
    state: toJson(state, 'state', owner),
  };
}
