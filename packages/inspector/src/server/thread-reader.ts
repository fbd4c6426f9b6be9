import type { SkeinEngine } from '@skein/core';
import { toMermaid } from '@skein/core';
import { CheckpointNotFoundError } from '@skein/spec';
import { storeHistory } from '../model/store-history.js';
import { threadDetail } from '../model/thread-detail.js';
import { threadSummary } from '../model/thread-summary.js';
import type { HistoryItem, ThreadDetail, ThreadSummary } from '../model/types.js';
import type { InspectorStore } from '../stores/inspector-store.js';

/**
 * Reads threads from the store for the API. Summaries need each thread's log (for its tokens),
 * so they are kept per thread until its last checkpoint changes.
 */
export class ThreadReader {
  readonly #store: InspectorStore;
  readonly #engine: SkeinEngine | undefined;
  readonly #summaries = new Map<string, { checkpointId: string; summary: ThreadSummary }>();

  constructor(store: InspectorStore, engine?: SkeinEngine) {
    this.#store = store;
    this.#engine = engine;
  }

  async summaries(): Promise<ThreadSummary[]> {
    const infos = await this.#store.listThreads();
    const out: ThreadSummary[] = [];
    for (const info of infos) {
      const cached = this.#summaries.get(info.threadId);
      if (cached?.checkpointId === info.lastCheckpointId) {
        out.push(cached.summary);
        continue;
      }
      const stored = await this.#store.load(info.threadId);
      if (stored === undefined) continue; // deleted between the two reads
      const summary = threadSummary(info, stored.state, stored.conversation.log);
      this.#summaries.set(info.threadId, { checkpointId: stored.checkpoint.id, summary });
      out.push(summary);
    }
    return out;
  }

  async detail(threadId: string): Promise<ThreadDetail | undefined> {
    const infos = await this.#store.listThreads();
    const info = infos.find((t) => t.threadId === threadId);
    if (info === undefined) return undefined;
    const [stored, checkpoints] = await Promise.all([
      this.#store.load(threadId),
      this.#store.list(threadId),
    ]);
    if (stored === undefined) return undefined;
    const children = (await this.summaries()).filter((t) => t.parentThreadId === threadId);
    const workflow = this.#workflow(info.workflowId, info.workflowVersion);
    return threadDetail({
      info: { ...info, status: stored.state.status, step: stored.state.step },
      stored,
      checkpoints,
      children,
      readsAttachments: typeof this.#store.readAttachment === 'function',
      ...(workflow === undefined ? {} : { workflow }),
    });
  }

  /**
   * The thread's checkpoints, oldest first: `engine.history` with an engine (with what changed at
   * each; it reads every checkpoint's state once), else the store's list alone.
   */
  async history(threadId: string): Promise<HistoryItem[]> {
    if (this.#engine !== undefined) return this.#engine.history(threadId);
    const infos = await this.#store.list(threadId);
    if (infos.length === 0) throw new CheckpointNotFoundError(threadId);
    return storeHistory(infos);
  }

  #workflow(id: string, version: string) {
    const workflows = this.#engine?.workflows;
    if (workflows === undefined || !workflows.has(id, version)) return undefined;
    const compiled = workflows.get(id, version);
    return {
      definition: compiled.definition,
      startNodeId: compiled.startNodeId,
      mermaid: toMermaid(compiled.definition),
    };
  }
}
