import { performance } from 'node:perf_hooks';
import type { CheckpointStore } from '@skein/core';

/** A store and what was asked of it since the last `reset`. */
export interface Counted {
  readonly store: CheckpointStore;
  /** How long each `save` took, in ms. */
  readonly saveMs: number[];
  /** Bytes `readAttachment` gave back. */
  readonly attachmentBytes: number;
  reset(): void;
}

/** `store` with its saves timed and the attachment bytes it read counted (for the benchmark). */
export function countedStore(store: CheckpointStore): Counted {
  const saveMs: number[] = [];
  let attachmentBytes = 0;
  const read = store.readAttachment?.bind(store);
  const save = async (checkpoint: Parameters<CheckpointStore['save']>[0]) => {
    const start = performance.now();
    await store.save(checkpoint);
    saveMs.push(performance.now() - start);
  };
  const readAttachment = async (threadId: string, digest: string) => {
    const bytes = await read!(threadId, digest);
    attachmentBytes += bytes?.length ?? 0;
    return bytes;
  };
  // A proxy, not a subclass: the stores keep their state in private fields, which only the
  // store itself may be the receiver of.
  const counted = new Proxy(store, {
    get(target, key) {
      if (key === 'save') return save;
      if (key === 'readAttachment') return read && readAttachment;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    store: counted,
    saveMs,
    get attachmentBytes() {
      return attachmentBytes;
    },
    reset() {
      saveMs.length = 0;
      attachmentBytes = 0;
    },
  };
}
