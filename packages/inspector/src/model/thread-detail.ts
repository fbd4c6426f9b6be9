import type { ConversationSnapshot } from '@skein/conversation';
import type { CheckpointInfo, StoredThread, ThreadInfo } from '@skein/spec';
import { batchHistory } from './batch-history.js';
import { nodeTimeline } from './node-timeline.js';
import { storedMessages } from './stored-messages.js';
import { markSummaries } from './summary-batches.js';
import type { InspectedState } from './thread-summary.js';
import { threadSummary } from './thread-summary.js';
import { pairToolCalls } from './tool-pairs.js';
import type { ThreadDetail, ThreadSummary } from './types.js';
import type { GraphSource } from './workflow-graph.js';
import { workflowGraph } from './workflow-graph.js';

export interface DetailSources {
  readonly info: ThreadInfo;
  readonly stored: StoredThread<InspectedState, ConversationSnapshot>;
  readonly checkpoints: readonly CheckpointInfo[];
  readonly children: readonly ThreadSummary[];
  /** The store can read attachments (`readAttachment`): parts by `ref` can be served. */
  readonly readsAttachments?: boolean;
  readonly workflow?: {
    readonly definition: GraphSource;
    readonly startNodeId: string;
    readonly mermaid: string;
  };
}

/** Everything the thread page shows, from one load of the thread and its checkpoint list. */
export function threadDetail(sources: DetailSources): ThreadDetail {
  const { info, stored, checkpoints, children, workflow } = sources;
  const { messages, log } = stored.conversation;
  const history = batchHistory(messages.length, log);
  const { batches, boundaries } = markSummaries(history.batches, history.boundaries, messages);
  const timeline = nodeTimeline(checkpoints, workflow?.startNodeId);
  const state = stored.state;
  return {
    summary: threadSummary(info, state, log),
    ...(state.currentNodeId === undefined ? {} : { currentNodeId: state.currentNodeId }),
    ...(state.pending === undefined ? {} : { pending: state.pending }),
    ...(state.output === undefined ? {} : { output: state.output }),
    messages: storedMessages(messages, sources.readsAttachments === true),
    batches,
    boundaries,
    toolPairs: pairToolCalls(messages),
    timeline,
    graph: workflowGraph(timeline, state.currentNodeId, workflow?.definition, workflow?.mermaid),
    children,
    checkpointId: stored.checkpoint.id,
  };
}
