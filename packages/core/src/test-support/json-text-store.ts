import type { LeaseRequest } from '@skein/spec';
import type { Checkpoint, CheckpointStore, StoredThread } from '../checkpoint/checkpoint-store.js';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';

/**
 * Keeps checkpoints as JSON text, as a database does: nothing is shared with the live thread,
 * `JSON.stringify` throws on a BigInt and turns NaN into null. `saved` holds every copy it kept;
 * `down` makes every save fail; `failSave` fails that many of the next saves.
 */
export class JsonTextStore implements CheckpointStore {
  readonly inner = new InMemoryCheckpointStore();
  readonly saved: Checkpoint[] = [];
  down = false;
  failSave = 0;
  saves = 0;

  async save(checkpoint: Checkpoint): Promise<void> {
    this.saves++;
    if (this.down) throw new Error('disk I/O error');
    if (this.failSave > 0) {
      this.failSave--;
      throw new Error('database is locked');
    }
    const copy = JSON.parse(JSON.stringify(checkpoint)) as Checkpoint;
    this.saved.push(copy);
    await this.inner.save(copy);
  }
  async load(threadId: string, id?: string): Promise<StoredThread | undefined> {
    const stored = await this.inner.load(threadId, id);
    return stored && (JSON.parse(JSON.stringify(stored)) as StoredThread);
  }
  list(threadId: string) {
    return this.inner.list(threadId);
  }
  async listStates(threadId: string) {
    return JSON.parse(JSON.stringify(await this.inner.listStates(threadId))) as Awaited<
      ReturnType<InMemoryCheckpointStore['listStates']>
    >;
  }
  listThreads() {
    return this.inner.listThreads();
  }
  listWakes() {
    return this.inner.listWakes();
  }
  listWaiting(event: string) {
    return this.inner.listWaiting(event);
  }
  delete(threadId: string) {
    return this.inner.delete(threadId);
  }
  prune(threadId: string, options: { keepLast: number }) {
    return this.inner.prune(threadId, options);
  }
  acquireLease(threadId: string, lease: LeaseRequest) {
    return this.inner.acquireLease(threadId, lease);
  }
  releaseLease(threadId: string, owner: string) {
    return this.inner.releaseLease(threadId, owner);
  }
  readAttachment(threadId: string, digest: string) {
    return this.inner.readAttachment(threadId, digest);
  }
}
