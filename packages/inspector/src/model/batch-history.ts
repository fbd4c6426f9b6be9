import type { ConversationLogEntry } from '@skein/conversation';
import type { TokenUsage } from '@skein/spec';
import type { BatchRecord, Boundary } from './types.js';

interface OpenBatch {
  index: number;
  stackIndex: number;
  visible: number[];
  withInitialTools: boolean;
  startedAt: number;
  usage: { promptTokens: number; completionTokens: number; totalTokens: number };
  openedBy: BatchRecord['openedBy'];
}

function zero(): OpenBatch['usage'] {
  return { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
}

function add(into: OpenBatch['usage'], usage: TokenUsage): void {
  into.promptTokens += usage.promptTokens;
  into.completionTokens += usage.completionTokens;
  into.totalTokens += usage.totalTokens;
}

/**
 * Folds a conversation's log the way @skein/conversation does, but keeps every batch ever opened
 * (a rollback drops batches from the stack, the page still shows them). Messages appended between
 * entries join the batch current at the time; messages an entry `stored` do not (the entry
 * places them itself).
 */
export function batchHistory(
  messageCount: number,
  log: readonly ConversationLogEntry[],
): { batches: BatchRecord[]; boundaries: Boundary[] } {
  const all: OpenBatch[] = [];
  const open = (batch: Omit<OpenBatch, 'index'>): OpenBatch => {
    const made = { ...batch, index: all.length };
    all.push(made);
    return made;
  };
  let stack: OpenBatch[] = [
    open({
      stackIndex: 0,
      visible: [],
      withInitialTools: false,
      startedAt: 0,
      usage: zero(),
      openedBy: 'initial',
    }),
  ];
  const boundaries: Boundary[] = [];
  let cursor = 0;
  let seen = 0;
  const appendUpTo = (end: number) => {
    const current = stack[stack.length - 1]!;
    while (cursor < end) current.visible.push(cursor++);
  };
  for (const entry of log) {
    appendUpTo(entry.at);
    cursor += entry.stored ?? 0;
    switch (entry.op) {
      case 'view':
        stack[stack.length - 1]!.visible = entry.live.slice();
        break;
      case 'batch': {
        if (entry.at === 0 && seen === 0) {
          stack.pop();
          all.pop();
        }
        const batch = open({
          stackIndex: stack.length,
          visible: entry.live.slice(),
          withInitialTools: entry.withInitialTools,
          startedAt: entry.at,
          usage: zero(),
          openedBy: 'batch',
        });
        stack.push(batch);
        if (entry.at > 0 || seen > 0)
          boundaries.push({
            kind: entry.withInitialTools ? 'clear' : 'batch',
            at: entry.at,
            label: `batch ${stack.length - 1} starts${entry.withInitialTools ? ' (with the tool description)' : ''}`,
          });
        break;
      }
      case 'rollback':
        stack = stack.slice(0, entry.batch + 1);
        boundaries.push({
          kind: 'rollback',
          at: entry.at,
          label: `rollback to batch ${entry.batch}`,
        });
        break;
      case 'usage':
        add(stack[stack.length - 1]!.usage, entry.usage);
        break;
      case 'restore':
        // A restore puts back an earlier stack: new records, so the old ones keep their history.
        stack = entry.batches.map((b, stackIndex) =>
          open({
            stackIndex,
            visible: b.live.slice(),
            withInitialTools: b.withInitialTools,
            startedAt: b.startedAt,
            usage: { ...b.usage },
            openedBy: 'restore',
          }),
        );
        boundaries.push({
          kind: 'restore',
          at: entry.at,
          label: `restored ${entry.batches.length} batch${entry.batches.length === 1 ? '' : 'es'}`,
        });
        break;
    }
    seen++;
  }
  appendUpTo(messageCount);
  const onStack = new Set(stack);
  const current = stack[stack.length - 1];
  return {
    batches: all.map((b) => ({
      index: b.index,
      stackIndex: b.stackIndex,
      startedAt: b.startedAt,
      withInitialTools: b.withInitialTools,
      visible: b.visible,
      usage: { ...b.usage },
      openedBy: b.openedBy,
      onStack: onStack.has(b),
      current: b === current,
    })),
    boundaries,
  };
}
