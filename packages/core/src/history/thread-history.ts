import { SUMMARY_KIND } from '@skein/conversation';
import { CheckpointNotFoundError, type ThreadStatus } from '@skein/spec';
import type { CheckpointInfo, CheckpointStore } from '../checkpoint/checkpoint-store.js';
import type { ThreadState } from '../thread/thread-state.js';

/** What changed from the checkpoint before. */
export interface HistoryChanges {
  /** The node that completed between the two checkpoints (none for a pause, a claim, a fork). */
  readonly nodeCompleted?: string;
  /** Messages stored since the checkpoint before. */
  readonly messagesAdded: number;
  /** Names of the variables set, changed or removed (with `variables: true`). */
  readonly variablesChanged?: readonly string[];
  /** The status, when it changed. */
  readonly status?: ThreadStatus;
  /**
   * Messages a summary made here stands for (a SUMMARIZE, or compaction): they left the model's
   * view for the summary and stay stored.
   */
  readonly summarized?: number;
}

/** One stored checkpoint of a thread, as `engine.history` lists it. */
export interface HistoryEntry {
  readonly checkpointId: string;
  readonly sequence: number;
  /** Nodes completed up to this checkpoint. */
  readonly step: number;
  /** The node that runs next from here (none once the thread ended). */
  readonly nodeId?: string;
  readonly status: ThreadStatus;
  readonly createdAt: string;
  readonly changes: HistoryChanges;
  /** `changes` in a few words, e.g. `agent completed; +2 messages; vars: city`. */
  readonly summary: string;
}

export interface HistoryOptions {
  /**
   * Also name the variables each checkpoint changed (default true). It reads every checkpoint's
   * state (`store.listStates`, one read without the conversation); without it, the list alone.
   */
  readonly variables?: boolean;
}

function changedNames(
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
): string[] {
  if (before === after) return [];
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter(
    (name) =>
      !Object.hasOwn(before, name) ||
      !Object.hasOwn(after, name) ||
      JSON.stringify(before[name]) !== JSON.stringify(after[name]),
  );
}

function summaryOf(changes: HistoryChanges): string {
  const parts: string[] = [];
  if (changes.nodeCompleted) parts.push(`${changes.nodeCompleted} completed`);
  if (changes.messagesAdded > 0)
    parts.push(`+${changes.messagesAdded} message${changes.messagesAdded === 1 ? '' : 's'}`);
  if (changes.summarized !== undefined)
    parts.push(`summary of ${changes.summarized} message${changes.summarized === 1 ? '' : 's'}`);
  if (changes.variablesChanged?.length) parts.push(`vars: ${changes.variablesChanged.join(', ')}`);
  if (changes.status) parts.push(changes.status);
  return parts.length > 0 ? parts.join('; ') : 'no change';
}

/**
 * The stored checkpoints of a thread, oldest first, each with what changed since the one before:
 * read from the store's list (and, for variables, each checkpoint's state). Pruned checkpoints
 * are gone from it; the first one listed is compared with nothing. Given a `principal`, a thread
 * of another is not found.
 */
export async function threadHistory(
  store: CheckpointStore,
  threadId: string,
  options: HistoryOptions = {},
  principal?: string,
): Promise<HistoryEntry[]> {
  const withVariables = options.variables !== false;
  // With variables, or to see whose thread it is: the states in one read (loading each
  // checkpoint would read its conversation).
  const listed: { checkpoint: CheckpointInfo; state?: ThreadState }[] =
    withVariables || principal !== undefined
      ? await store.listStates(threadId)
      : (await store.list(threadId)).map((checkpoint) => ({ checkpoint }));
  listed.sort((a, b) => a.checkpoint.sequence - b.checkpoint.sequence);
  // A thread of another principal (or of none) is, to a principal, one that does not exist.
  if (
    listed.length === 0 ||
    (principal !== undefined && listed.at(-1)!.state?.principal !== principal)
  )
    throw new CheckpointNotFoundError(threadId);
  const summarized = await summariesByPosition(store, threadId);
  const entries: HistoryEntry[] = [];
  let before: CheckpointInfo | undefined;
  let vars: Readonly<Record<string, unknown>> | undefined;
  for (const { checkpoint: info, state } of listed) {
    let variablesChanged: string[] | undefined;
    if (withVariables) {
      const now = state?.variables ?? {};
      variablesChanged = changedNames(vars ?? {}, now);
      vars = now;
    }
    let summary: number | undefined;
    for (const [position, count] of summarized)
      if (position >= (before?.messageCount ?? 0) && position < info.messageCount)
        summary = (summary ?? 0) + count;
    const changes: HistoryChanges = {
      ...(before && info.step > before.step && before.currentNodeId
        ? { nodeCompleted: before.currentNodeId }
        : {}),
      messagesAdded: info.messageCount - (before?.messageCount ?? 0),
      ...(summary === undefined ? {} : { summarized: summary }),
      ...(variablesChanged ? { variablesChanged } : {}),
      ...(before?.status !== info.status ? { status: info.status } : {}),
    };
    entries.push({
      checkpointId: info.id,
      sequence: info.sequence,
      step: info.step,
      ...(info.currentNodeId === undefined ? {} : { nodeId: info.currentNodeId }),
      status: info.status,
      createdAt: info.createdAt,
      changes,
      summary: summaryOf(changes),
    });
    before = info;
  }
  return entries;
}

/**
 * The thread's summaries by storage position, with how many messages each stands for: read from
 * its latest checkpoint's conversation (one read; every earlier checkpoint's messages are a
 * prefix of it).
 */
async function summariesByPosition(
  store: CheckpointStore,
  threadId: string,
): Promise<Map<number, number>> {
  const found = new Map<number, number>();
  const latest = await store.load(threadId);
  latest?.conversation.messages.forEach((message, position) => {
    if (message.metadata?.kind !== SUMMARY_KIND) return;
    const count = message.metadata.summarized;
    found.set(position, typeof count === 'number' ? count : 0);
  });
  return found;
}
