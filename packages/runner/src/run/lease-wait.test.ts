import { join } from 'node:path';
import { InMemoryCheckpointStore } from '@skein/core';
import type { LeaseRequest } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import type { ItemResult } from '../output/item-result.js';
import { qaEngine } from '../test-support/qa-engine.js';
import { readLines, tempFolder } from '../test-support/temp-folder.js';
import { runDataset } from './run-dataset.js';

describe('an item whose thread another process holds', () => {
  it('waits for the lease to expire instead of failing the item for good', async () => {
    let clock = 1_000_000;
    // Leases are kept by this clock: the first refusal moves it past the dead process's lease,
    // so what the test sees does not depend on how long anything takes.
    class Store extends InMemoryCheckpointStore {
      refusals = 0;
      override async acquireLease(threadId: string, lease: LeaseRequest): Promise<boolean> {
        const taken = await super.acquireLease(threadId, lease);
        if (!taken) {
          this.refusals++;
          clock += 60_000;
        }
        return taken;
      }
    }
    const store = new Store();
    // A process that took the item's thread and died before it saved anything.
    await store.acquireLease('leased/0', { owner: 'dead', expiresAt: clock + 30_000, now: clock });
    const out = tempFolder();
    const summary = await runDataset({
      engine: qaEngine({ store, now: () => clock }),
      workflowId: 'qa',
      input: ['held', 'free'],
      output: join(out, 'run'),
      runId: 'leased',
    });
    expect(store.refusals).toBe(1);
    const results = readLines<ItemResult>(join(out, 'run', 'results.jsonl'));
    expect(results.map((r) => `${r.itemId} ${r.status}`).sort()).toEqual([
      '0 COMPLETED',
      '1 COMPLETED',
    ]);
    expect(summary).toMatchObject({ finished: true, items: { COMPLETED: 2, FAILED: 0 } });
  });
});
