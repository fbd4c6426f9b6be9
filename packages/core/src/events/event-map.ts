import type { FinishReason, JsonSchema, LLMMessage, TokenUsage, ToolSpec } from '@skein/spec';
import type { ListenerError } from '../errors/listener-error.js';

interface ThreadScoped {
  readonly threadId: string;
  /**
   * Set on events of a branch or child thread: the thread that started it (its parent), and the
   * branch's path from the top-level thread (`fanout/branch`, `map[2]`, `sub`, joined by `/`).
   */
  readonly parentThreadId?: string;
  readonly branchPath?: string;
  /** The top-level thread a branch or child thread belongs to (set with `parentThreadId`). */
  readonly rootThreadId?: string;
}

interface NodeScoped extends ThreadScoped {
  readonly nodeId: string;
}

export interface ThreadStartedEvent extends ThreadScoped {
  readonly workflowId: string;
  readonly workflowVersion: string;
}
export interface ThreadFinishedEvent extends ThreadScoped {
  readonly status: 'COMPLETED' | 'FAILED' | 'PAUSED' | 'CANCELLED';
  readonly steps: number;
  readonly output?: unknown;
  readonly error?: {
    readonly code: string;
    readonly message: string;
    /** `GUARDRAIL_TRIPPED`: the guardrail, its stage and reason (as stored with the thread). */
    readonly guardrail?: {
      readonly name: string;
      readonly stage: string;
      readonly reason: string;
      readonly endsChat?: boolean;
      readonly toolCallId?: string;
      readonly toolName?: string;
    };
  };
}
/** A tool call waiting for a person's approval: answer it by `toolCallId`. */
export interface ApprovalRequest {
  readonly toolCallId: string;
  readonly name: string;
  /** The arguments as the model sent them (JSON text). */
  readonly arguments: string;
}
export interface ThreadPausedEvent extends ThreadScoped {
  readonly nodeId: string;
  /**
   * A person's answer (`user-input`), approvals of tool calls, branches that wait themselves —
   * or, with the thread WAITING, a time (`sleep`) or an outside event (`event`).
   */
  readonly reason: 'user-input' | 'tool-approval' | 'branches' | 'sleep' | 'event';
  readonly prompt?: string;
  /** With `user-input`: the answer's JSON Schema, when the node declares one (`input`). */
  readonly input?: JsonSchema;
  /** With `sleep`: the ISO time the thread wakes at. */
  readonly wakeAt?: string;
  /** With `event`: the event name it waits for. */
  readonly event?: string;
  /** With `user-input` or `event` and a timeout: the ISO time the wait times out at. */
  readonly deadline?: string;
  /** With `tool-approval`: the calls waiting for a decision, in the order the model made them. */
  readonly approvals?: readonly ApprovalRequest[];
  /** With `branches`: the paths of the branches that wait (answer one with `{ branch, input }`). */
  readonly branches?: readonly string[];
}
export interface NodeEvent extends NodeScoped {
  readonly nodeType: string;
  readonly step: number;
}
export interface NodeCompletedEvent extends NodeEvent {
  readonly durationMs: number;
  /** How the node ended when it says so (an LLM node: `done` or `max-tool-rounds`). */
  readonly status?: string;
  readonly nextNodeId?: string;
}
export interface NodeFailedEvent extends NodeEvent {
  /** The checkpoint the thread can go on from; absent when none was stored yet. */
  readonly lastCheckpointId?: string;
  /** The node's error: its `code` and message, and where it happened (see `NodeFailure`). */
  readonly error: {
    readonly code: string;
    readonly message: string;
    readonly threadId: string;
    readonly nodeId: string;
    readonly lastCheckpointId?: string;
  };
}
export interface LLMTokenEvent extends NodeScoped {
  readonly delta: string;
}
/**
 * A piece of a tool call's arguments as the model streams them, before its answer is whole
 * (`tool:call` follows once it is run). `index` is the call's place in the answer; `toolCallId`
 * and `name` come when the provider sends them (some send them late). The call's final id is the
 * one on `llm:response` and `tool:call` (a repeated provider id is made unique there).
 */
export interface LLMToolInputEvent extends NodeScoped {
  readonly index: number;
  readonly toolCallId?: string;
  readonly name?: string;
  readonly delta: string;
}
/** A model call is about to be made (once per tool round; retries of it are not repeated). */
export interface LLMRequestEvent extends NodeScoped {
  readonly round: number;
  /** `summary` for the call that writes a summary (its answer is never an assistant turn). */
  readonly purpose?: 'summary';
  /** The node's `model`, when it names one. */
  readonly model?: string;
  /** The visible conversation sent. */
  readonly messages: readonly LLMMessage[];
  /** The tools offered. */
  readonly tools: readonly ToolSpec[];
}
export interface LLMResponseEvent extends NodeScoped {
  readonly message: LLMMessage;
  readonly usage?: TokenUsage;
  readonly finishReason: FinishReason;
  readonly round: number;
  /** `summary` for the call that wrote a summary: `message` is the summary, not a turn. */
  readonly purpose?: 'summary';
}
export interface ToolCallEvent extends NodeScoped {
  readonly toolCallId: string;
  readonly name: string;
  readonly arguments: string;
}
export interface ToolResultEvent extends NodeScoped {
  readonly toolCallId: string;
  readonly name: string;
  readonly content: string;
  readonly isError: boolean;
  readonly durationMs: number;
}
export interface ToolErrorEvent extends NodeScoped {
  readonly toolCallId: string;
  readonly name: string;
  readonly code: string;
  readonly message: string;
}
/**
 * A guardrail decided something other than `pass`: `trip` (the run ends `GUARDRAIL_TRIPPED`
 * right after), `refuse` (a tool call does not run) or `redact` (a tool result is replaced).
 */
export interface GuardrailVerdictEvent extends NodeScoped {
  readonly guardrail: string;
  readonly stage: 'input' | 'output' | 'tool-call' | 'tool-result';
  readonly action: 'trip' | 'refuse' | 'redact';
  readonly reason?: string;
  readonly toolCallId?: string;
  readonly toolName?: string;
}
export interface MessageAddedEvent extends ThreadScoped {
  readonly message: LLMMessage;
  readonly position: number;
}
export interface BatchStartedEvent extends ThreadScoped {
  readonly batch: number;
  readonly withInitialTools: boolean;
}
export interface OperationAppliedEvent extends ThreadScoped {
  /** The node that applied it (a CONTEXT_PROCESSOR, or an LLM node compacting before a call). */
  readonly nodeId?: string;
  /** `SUMMARIZE` for a summary, which starts a batch of its own. */
  readonly operation: string;
  readonly visibleBefore: number;
  readonly visibleAfter: number;
  /** The batch shown after it. */
  readonly batch?: number;
  /** For a SUMMARIZE: how many messages the summary stands for. */
  readonly summarized?: number;
}
export interface CheckpointSavedEvent extends ThreadScoped {
  readonly checkpointId: string;
  readonly step: number;
}
export interface TriggerFiredEvent extends ThreadScoped {
  readonly triggerId: string;
  readonly action: string;
}
export interface WarningEvent {
  readonly threadId?: string;
  readonly nodeId?: string;
  readonly code: string;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

/** A listener threw; the engine carried on. */
export interface ListenerErrorEvent {
  /** The event whose listener threw. */
  readonly event: string;
  readonly error: ListenerError;
  readonly threadId?: string;
}

/** Every event the engine emits, by `noun:verb` name. Listeners receive one payload argument. */
export interface SkeinEventMap {
  'thread:started': ThreadStartedEvent;
  'thread:completed': ThreadFinishedEvent;
  'thread:failed': ThreadFinishedEvent;
  'thread:paused': ThreadPausedEvent;
  'thread:cancelled': ThreadFinishedEvent;
  'node:started': NodeEvent;
  'node:completed': NodeCompletedEvent;
  'node:failed': NodeFailedEvent;
  'llm:token': LLMTokenEvent;
  'llm:tool-input': LLMToolInputEvent;
  'llm:request': LLMRequestEvent;
  'llm:response': LLMResponseEvent;
  'tool:call': ToolCallEvent;
  'tool:result': ToolResultEvent;
  'tool:error': ToolErrorEvent;
  'guardrail:verdict': GuardrailVerdictEvent;
  'message:added': MessageAddedEvent;
  'batch:started': BatchStartedEvent;
  'operation:applied': OperationAppliedEvent;
  'checkpoint:saved': CheckpointSavedEvent;
  'trigger:fired': TriggerFiredEvent;
  warning: WarningEvent;
  /** A listener of another event threw (see `SkeinEmitter`). */
  error: ListenerErrorEvent;
}

export type SkeinEventName = keyof SkeinEventMap;
