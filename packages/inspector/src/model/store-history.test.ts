import type { CheckpointInfo } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { storeHistory } from './store-history.js';

function info(sequence: number, extra: Partial<CheckpointInfo> = {}): CheckpointInfo {
  return {
    id: `t:${sequence}`,
    threadId: 't',
    sequence,
    createdAt: `2026-01-01T00:00:0${sequence}.000Z`,
    status: 'RUNNING',
    step: sequence,
    currentNodeId: `n${sequence}`,
    messageCount: sequence,
    ...extra,
  };
}

describe('storeHistory', () => {
  it('lists checkpoints oldest first with what the list says, and no node once ended', () => {
    const ended = info(3, { status: 'COMPLETED', currentNodeId: undefined });
    expect(storeHistory([ended, info(1), info(2)])).toEqual([
      {
        checkpointId: 't:1',
        sequence: 1,
        step: 1,
        nodeId: 'n1',
        status: 'RUNNING',
        createdAt: '2026-01-01T00:00:01.000Z',
      },
      {
        checkpointId: 't:2',
        sequence: 2,
        step: 2,
        nodeId: 'n2',
        status: 'RUNNING',
        createdAt: '2026-01-01T00:00:02.000Z',
      },
      {
        checkpointId: 't:3',
        sequence: 3,
        step: 3,
        status: 'COMPLETED',
        createdAt: '2026-01-01T00:00:03.000Z',
      },
    ]);
  });
});
