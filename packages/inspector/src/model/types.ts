import type { HistoryEntry } from '@skein/core';
import type { LLMMessage, ThreadStatus, TokenUsage } from '@skein/spec';
import type { PartView } from './media-part-view.js';

// The JSON the API serves. The page reads these shapes; they hold only plain data.

/** One row of the thread list. */
export interface ThreadSummary {
  readonly threadId: string;
  readonly workflowId: string;
  readonly workflowVersion: string;
  readonly status: ThreadStatus;
  readonly startedAt: string;
  readonly updatedAt: string;
  readonly steps: number;
  readonly tokens: TokenUsage;
  readonly lastError?: {
    readonly code: string;
    readonly message: string;
    readonly nodeId?: string;
    /** `GUARDRAIL_TRIPPED`: the guardrail that stopped the thread, where and why. */
    readonly guardrail?: TrippedGuardrailView;
  };
  /** The thread that started this one, for branch and child threads. */
  readonly parentThreadId?: string;
  /** Where a branch or child sits under the top-level thread (`compare/cities[2]`). */
  readonly branchPath?: string;
  /** The thread and checkpoint a fork was made from. */
  readonly forkedFrom?: { readonly threadId: string; readonly checkpointId: string };
}

/** A guardrail's trip as stored with the thread (`ThreadState.error.guardrail` of @skein/core). */
export interface TrippedGuardrailView {
  readonly name: string;
  /** `input`, `output`, `tool-call` or `tool-result`. */
  readonly stage: string;
  readonly reason: string;
  /** A chat's next message is refused too. */
  readonly endsChat?: boolean;
  /** The tool call it stopped (tool stages). */
  readonly toolCallId?: string;
  readonly toolName?: string;
}

/** A stored message with its storage position and what the page needs to draw it. */
export interface StoredMessage extends Omit<LLMMessage, 'content'> {
  /** Its text: the content itself, or the text of its parts (`contentText`). */
  readonly content: string;
  /**
   * When the content is a list of parts: each in order, text as it is and media described (type,
   * size, name, how the page shows it); the bytes come from the part route.
   */
  readonly parts?: readonly PartView[];
  readonly position: number;
  /** The guaranteed tool-description system message. */
  readonly isToolDescription: boolean;
  /** On a tool message: the result reported an error. */
  readonly isError: boolean;
}

/** One batch as it was (or is): every batch ever opened, discarded ones included. */
export interface BatchRecord {
  /** Order in which batches were opened, from 0. */
  readonly index: number;
  /** Its number on the batch stack when it was opened (what `rollbackToBatch` takes). */
  readonly stackIndex: number;
  /** Stored-message count when it started. */
  readonly startedAt: number;
  readonly withInitialTools: boolean;
  /** Storage positions the model saw last in this batch, in view order. */
  readonly visible: readonly number[];
  readonly usage: TokenUsage;
  /** What opened it. */
  readonly openedBy: 'initial' | 'batch' | 'restore';
  /** Set when a SUMMARIZE started it: the summary's storage position, and what it stands for. */
  readonly summary?: { readonly position: number; readonly summarized?: number };
  /** Still on the stack; false once a rollback or restore dropped it. */
  readonly onStack: boolean;
  readonly current: boolean;
}

/** A change of the view worth marking between messages. */
export interface Boundary {
  readonly kind: 'batch' | 'clear' | 'summary' | 'rollback' | 'restore';
  /** Stored-message count when it happened: drawn before message `at`. */
  readonly at: number;
  readonly label: string;
}

/** An assistant's tool call and the tool message answering it (if any yet). */
export interface ToolPair {
  readonly callId: string;
  readonly name: string;
  /** Arguments pretty-printed when they are JSON, as sent otherwise. */
  readonly arguments: string;
  readonly callPosition: number;
  readonly resultPosition?: number;
  readonly result?: string;
  readonly isError: boolean;
}

/** One node run as the checkpoints tell it. */
export interface TimelineEntry {
  readonly sequence: number;
  readonly step: number;
  readonly nodeId: string;
  readonly status: 'completed' | 'paused' | 'failed' | 'cancelled' | 'running';
  readonly at: string;
  /** Time since the previous checkpoint, when there is one. */
  readonly durationMs?: number;
  /** 1 for the first run of this node at this step, 2 for the next try after a failure… */
  readonly attempt: number;
}

export interface WorkflowGraph {
  /** Every node of the workflow when the definition is known (an engine was given), else the
   * nodes the thread went through. */
  readonly nodes: readonly {
    readonly id: string;
    readonly type?: string;
    readonly visited: boolean;
  }[];
  readonly edges: readonly {
    readonly from: string;
    readonly to: string;
    readonly label?: string;
    /** From a PARALLEL or MAP node to where one of its branches starts (not an edge taken). */
    readonly branch?: boolean;
  }[];
  readonly mermaid?: string;
  readonly path: readonly string[];
}

export interface ThreadDetail {
  readonly summary: ThreadSummary;
  readonly currentNodeId?: string;
  readonly pending?: unknown;
  readonly output?: unknown;
  readonly messages: readonly StoredMessage[];
  readonly batches: readonly BatchRecord[];
  readonly boundaries: readonly Boundary[];
  readonly toolPairs: readonly ToolPair[];
  readonly timeline: readonly TimelineEntry[];
  /** The workflow as data; the page lays it out (box sizes are the page's business). */
  readonly graph: WorkflowGraph;
  /** Threads this one started (not theirs), each with its full `branchPath`. */
  readonly children: readonly ThreadSummary[];
  /** Checkpoints read: the page asks again when this changes. */
  readonly checkpointId: string;
}

/**
 * One stored checkpoint of a thread (`GET /api/threads/:id/history`). With an engine it is
 * `engine.history`'s entry; without one, what the store's list says: `changes` and `summary`
 * are then missing.
 */
export type HistoryItem = Omit<HistoryEntry, 'changes' | 'summary'> &
  Partial<Pick<HistoryEntry, 'changes' | 'summary'>>;
