import type { LeaseRequest } from '@skein/spec';
import { runCheckpointStoreConformance } from '../conformance/checkpoint-store-conformance.js';
import type { Checkpoint, CheckpointStore, StoredThread } from './checkpoint-store.js';
import { InMemoryCheckpointStore } from './in-memory-checkpoint-store.js';

/**
 * A store that keeps every checkpoint as JSON text, as a database does, so the suite's value
 * round trips are checked against serialisation too (not only against kept references).
 */
class JsonTextStore implements CheckpointStore {
  readonly #inner = new InMemoryCheckpointStore();

  async save(checkpoint: Checkpoint): Promise<void> {
    await this.#inner.save(JSON.parse(JSON.stringify(checkpoint)));
  }
  async load(threadId: string, checkpointId?: string): Promise<StoredThread | undefined> {
    const stored = await this.#inner.load(threadId, checkpointId);
    return stored && (JSON.parse(JSON.stringify(stored)) as StoredThread);
  }
  list(threadId: string) {
    return this.#inner.list(threadId);
  }
  listThreads() {
    return this.#inner.listThreads();
  }
  delete(threadId: string) {
    return this.#inner.delete(threadId);
  }
  prune(threadId: string, options: { keepLast: number }) {
    return this.#inner.prune(threadId, options);
  }
  acquireLease(threadId: string, lease: LeaseRequest) {
    return this.#inner.acquireLease(threadId, lease);
  }
  releaseLease(threadId: string, owner: string) {
    return this.#inner.releaseLease(threadId, owner);
  }
}

runCheckpointStoreConformance('a store keeping JSON text', async () => ({
  store: new JsonTextStore(),
}));
