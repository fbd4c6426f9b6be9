import type { LLMMessage, TokenUsage } from '@skein/spec';
import type { OperationResult } from './context-operations.js';

export interface ConversationEventMap {
  /** A message was stored (appended, or stored by an operation). */
  'message:added': { readonly message: LLMMessage; readonly position: number };
  'batch:started': { readonly batch: number; readonly withInitialTools: boolean };
  'batch:rolledBack': { readonly batch: number };
  'operation:applied': OperationResult;
  'usage:recorded': { readonly usage: TokenUsage; readonly batch: number };
  /** A listener of `event` threw. The call that notified it completed all the same. */
  error: { readonly error: unknown; readonly event: ConversationEventName };
}

export type ConversationEventName = keyof ConversationEventMap;

export type ConversationListeners = {
  [K in ConversationEventName]: (payload: ConversationEventMap[K]) => void;
};

/**
 * Told of a manager's events without a listener per event: how an engine forwards the events of
 * every thread (one small object per conversation, where listeners cost an emitter, a wrapper and
 * a closure each). Its errors are reported like a listener's.
 */
export interface ConversationObserver {
  /** Whether `event` is wanted now: asked before a payload is built. */
  wants(event: ConversationEventName): boolean;
  notify<K extends ConversationEventName>(event: K, payload: ConversationEventMap[K]): void;
}
