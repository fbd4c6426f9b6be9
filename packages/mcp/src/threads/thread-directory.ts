import type { SkeinEngine, ThreadContext } from '@skein/core';
import { SkeinError } from '@skein/spec';
import { McpCallError } from '../errors/mcp-call-error.js';

/** Threads kept in memory when the engine has no store (the most recently used). */
const DEFAULT_CAPACITY = 1_000;

/**
 * Finds the threads a client may see by id. With a store, a thread is loaded from it each time
 * (so it survives a restart, and a thread another process moved on is seen as it is now);
 * without one, the threads this server started are kept in memory, the least recently used
 * dropped first once there are `capacity` of them (never one that runs). Either way only
 * top-level threads of the workflows this server offers are found: a branch, or a thread of
 * another workflow sharing the store, is THREAD_NOT_FOUND like a thread that is not there; so
 * is, to a caller with a principal, a thread of another.
 */
export class ThreadDirectory {
  readonly #engine: SkeinEngine;
  readonly #offered: ReadonlySet<string>;
  readonly #capacity: number;
  readonly #kept = new Map<string, ThreadContext>();

  constructor(engine: SkeinEngine, offered: ReadonlySet<string>, capacity = DEFAULT_CAPACITY) {
    this.#engine = engine;
    this.#offered = offered;
    this.#capacity = capacity;
  }

  /** Whether threads of `workflowId` may be found: it is one of the workflows this server offers. */
  offers(workflowId: string): boolean {
    return this.#offered.has(workflowId);
  }

  /** Keeps a thread this server started (only without a store: the store keeps it otherwise). */
  remember(thread: ThreadContext): void {
    if (this.#engine.store) return;
    this.#kept.delete(thread.threadId);
    this.#kept.set(thread.threadId, thread);
    if (this.#kept.size <= this.#capacity) return;
    for (const [id, kept] of this.#kept) {
      if (this.#kept.size <= this.#capacity) break;
      if (!kept.running) this.#kept.delete(id);
    }
  }

  /**
   * The thread `threadId` as it is now; THREAD_NOT_FOUND unless a client of this server may see
   * it. Given the caller's `principal`, a thread of another principal (or of none) is not found
   * either, in the same words.
   */
  async find(threadId: string, principal?: string): Promise<ThreadContext> {
    const thread = this.#engine.store ? await this.#load(threadId) : this.#kept.get(threadId);
    if (
      thread === undefined ||
      thread.state.parent !== undefined ||
      !this.#offered.has(thread.workflow.id) ||
      (principal !== undefined && thread.state.principal !== principal)
    )
      throw McpCallError.threadNotFound(threadId);
    if (!this.#engine.store) this.remember(thread);
    return thread;
  }

  async #load(threadId: string): Promise<ThreadContext | undefined> {
    try {
      return await this.#engine.getThread(threadId);
    } catch (error) {
      // Stored, but of a workflow this engine no longer has: nothing a client can go on with.
      if (SkeinError.hasCode(error, 'WORKFLOW_NOT_FOUND')) return undefined;
      throw error;
    }
  }
}
