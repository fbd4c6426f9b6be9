import type { EncodedCheckpoint } from '@skein/core/store-kit';
import type { GroupHeadRow, LeasedThreadRow } from './statements.js';

/**
 * The parameters of `saveGroup` for checkpoints of distinct threads: one array per column, and
 * the new messages and log entries flattened with the ordinal (from 1) of their checkpoint.
 */
export function groupValues(group: readonly EncodedCheckpoint[]): unknown[] {
  const threadIds: string[] = [];
  const fromMessages: number[] = [];
  const fromLog: number[] = [];
  const parentIds: (string | null)[] = [];
  const owners: (string | null)[] = [];
  const leased: string[] = [];
  const rows = {
    ids: [] as string[],
    sequences: [] as number[],
    createdAt: [] as string[],
    statuses: [] as string[],
    steps: [] as number[],
    nodes: [] as (string | null)[],
    messageCounts: [] as number[],
    logCounts: [] as number[],
    states: [] as string[],
    workflowIds: [] as string[],
    workflowVersions: [] as string[],
    wakes: [] as (number | null)[],
    events: [] as (string | null)[],
  };
  const messages = { ords: [] as number[], positions: [] as number[], bodies: [] as string[] };
  const log = { ords: [] as number[], positions: [] as number[], bodies: [] as string[] };
  group.forEach((checkpoint, i) => {
    const { from, threadId } = checkpoint;
    threadIds.push(threadId);
    fromMessages.push(from.messages);
    fromLog.push(from.log);
    parentIds.push(checkpoint.parentId);
    owners.push(checkpoint.owner ?? null);
    if (checkpoint.owner !== undefined) leased.push(threadId);
    rows.ids.push(checkpoint.id);
    rows.sequences.push(checkpoint.sequence);
    rows.createdAt.push(checkpoint.createdAt);
    rows.statuses.push(checkpoint.status);
    rows.steps.push(checkpoint.step);
    rows.nodes.push(checkpoint.currentNodeId);
    rows.messageCounts.push(from.messages + checkpoint.messages.length);
    rows.logCounts.push(from.log + checkpoint.log.length);
    rows.states.push(checkpoint.state);
    rows.workflowIds.push(checkpoint.workflowId);
    rows.workflowVersions.push(checkpoint.workflowVersion);
    rows.wakes.push(checkpoint.wakeAt);
    rows.events.push(checkpoint.waitsFor);
    checkpoint.messages.forEach((body, j) => {
      messages.ords.push(i + 1);
      messages.positions.push(from.messages + j);
      messages.bodies.push(body);
    });
    checkpoint.log.forEach((body, j) => {
      log.ords.push(i + 1);
      log.positions.push(from.log + j);
      log.bodies.push(body);
    });
  });
  return [
    threadIds,
    fromMessages,
    fromLog,
    parentIds,
    owners,
    leased,
    messages.ords,
    messages.positions,
    messages.bodies,
    log.ords,
    log.positions,
    log.bodies,
    rows.ids,
    rows.sequences,
    rows.createdAt,
    rows.statuses,
    rows.steps,
    rows.nodes,
    rows.messageCounts,
    rows.logCounts,
    rows.states,
    rows.workflowIds,
    rows.workflowVersions,
    rows.wakes,
    rows.events,
  ];
}

/** A `saveGroup` row as `saveOnHead` would have returned it; undefined: the thread has no row. */
export function headOf(row: GroupHeadRow | undefined): LeasedThreadRow | undefined {
  if (row?.id == null) return undefined;
  return row as LeasedThreadRow;
}
