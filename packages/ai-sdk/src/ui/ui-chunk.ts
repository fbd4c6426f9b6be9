import type { ThreadPausedEvent } from '@skein/core';
import type { UIFileChunk } from '../parts/ai-sdk-shapes.js';
/**
 * The parts of the AI SDK UI message stream protocol (the `ai` package's `uiMessageChunkSchema`)
 * that a Skein thread produces. Declared here rather than imported so this package's types do not
 * need `ai` (an optional peer) installed.
 */
export type UIFinishReason =
  | 'stop'
  | 'length'
  | 'content-filter'
  | 'tool-calls'
  | 'error'
  | 'other';

export type UIChunk =
  | { readonly type: 'start'; readonly messageId?: string; readonly messageMetadata?: unknown }
  | { readonly type: 'start-step' }
  | { readonly type: 'text-start'; readonly id: string }
  | { readonly type: 'text-delta'; readonly id: string; readonly delta: string }
  | { readonly type: 'text-end'; readonly id: string }
  | { readonly type: 'reasoning-start'; readonly id: string }
  | { readonly type: 'reasoning-delta'; readonly id: string; readonly delta: string }
  | { readonly type: 'reasoning-end'; readonly id: string }
  | { readonly type: 'tool-input-start'; readonly toolCallId: string; readonly toolName: string }
  | {
      readonly type: 'tool-input-delta';
      readonly toolCallId: string;
      readonly inputTextDelta: string;
    }
  | {
      readonly type: 'tool-input-available';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly input: unknown;
    }
  | {
      readonly type: 'tool-input-error';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly input: unknown;
      readonly errorText: string;
    }
  | {
      readonly type: 'tool-approval-request';
      readonly approvalId: string;
      readonly toolCallId: string;
    }
  | {
      readonly type: 'tool-output-available';
      readonly toolCallId: string;
      readonly output: unknown;
    }
  | { readonly type: 'tool-output-error'; readonly toolCallId: string; readonly errorText: string }
  | { readonly type: 'tool-output-denied'; readonly toolCallId: string }
  | { readonly type: 'finish-step' }
  | {
      readonly type: 'finish';
      readonly finishReason?: UIFinishReason;
      readonly messageMetadata?: unknown;
    }
  | { readonly type: 'error'; readonly errorText: string }
  | { readonly type: 'abort'; readonly reason?: string }
  | UIFileChunk
  | SkeinDataChunk;

/**
 * Skein's own information, as AI SDK data parts: `useChat` keeps them out of the message unless
 * asked (they are transient by default, reaching only `onData`).
 */
export type SkeinDataChunk =
  | DataChunk<'data-skein-node', SkeinNodeData>
  | DataChunk<'data-skein-batch', { readonly batch: number; readonly withInitialTools: boolean }>
  | DataChunk<'data-skein-checkpoint', { readonly checkpointId: string; readonly step: number }>
  | DataChunk<'data-skein-paused', SkeinPausedData>
  | DataChunk<'data-skein-summary', SkeinSummaryData>
  | DataChunk<'data-skein-posted', SkeinPostedData>
  | DataChunk<'data-skein-guardrail', SkeinGuardrailData>
  | DataChunk<'data-skein-retract', SkeinRetractData>;

interface DataChunk<T extends string, D> {
  readonly type: T;
  readonly id?: string;
  readonly data: D;
  readonly transient?: boolean;
}

/** A node started or completed (one part per node visit: the completion updates it in place). */
export interface SkeinNodeData {
  readonly nodeId: string;
  readonly nodeType: string;
  readonly step: number;
  readonly state: 'started' | 'completed' | 'failed';
  readonly durationMs?: number;
}

/**
 * Earlier messages were summarised: a batch now shows a summary in their place (they stay
 * stored, and `GET /messages` still reads them all). A page can say "earlier messages
 * summarised" here.
 */
export interface SkeinSummaryData {
  readonly threadId: string;
  readonly nodeId?: string;
  /** The batch the summary starts. */
  readonly batch?: number;
  /** How many messages the summary stands for. */
  readonly summarized?: number;
}

/** The run paused: what for, and for a person's answer the prompt. */
export interface SkeinPausedData {
  readonly threadId: string;
  readonly nodeId: string;
  readonly reason: ThreadPausedEvent['reason'];
  readonly prompt?: string;
}

/**
 * The message waits in the thread's inbox (decision 0036): another process runs the thread, or
 * it waits (on time, an event, or tool approvals). The turn that takes it answers it later; a
 * page can show the message as queued and load the chat again when the thread is idle.
 */
export interface SkeinPostedData {
  readonly threadId: string;
  /**
   * Its place in the thread's inbox (1, 2, 3…); absent when not known yet (a worker's send job
   * that has not posted it when the stream ends).
   */
  readonly seq?: number;
  /** The thread's status when the message was posted. */
  readonly status: 'RUNNING' | 'WAITING' | 'PAUSED';
}

/**
 * A guardrail decided something other than pass: `trip` (the run ends with `GUARDRAIL_TRIPPED`:
 * the stream's `error` part follows), `refuse` (a tool call did not run: its part shows the
 * refusal as its error) or `redact` (a tool result was replaced: its part shows the redacted
 * output).
 */
export interface SkeinGuardrailData {
  readonly guardrail: string;
  readonly stage: 'input' | 'output' | 'tool-call' | 'tool-result';
  readonly action: 'trip' | 'refuse' | 'redact';
  readonly reason?: string;
  /** The tool call it was about (tool stages). */
  readonly toolCallId?: string;
  readonly toolName?: string;
  /** A trip that ended the chat: its next message is refused too. */
  readonly endsChat?: boolean;
}

/**
 * With `guardedText: 'stream'`, a guardrail tripped after text of the answer had streamed: that
 * text was never taken (the thread does not store it). It is the text of the message's last step
 * (`textIds` are its `text-start` ids): remove it, or show it struck through.
 */
export interface SkeinRetractData {
  /** The assistant message the text is in (`start`'s `messageId`), when the stream names one. */
  readonly messageId?: string;
  readonly textIds: readonly string[];
  readonly guardrail: string;
  readonly stage: SkeinGuardrailData['stage'];
  readonly reason: string;
}
