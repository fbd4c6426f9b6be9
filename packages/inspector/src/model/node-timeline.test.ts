import type { CheckpointInfo } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { nodeTimeline } from './node-timeline.js';

function checkpoint(
  sequence: number,
  step: number,
  status: CheckpointInfo['status'],
  next?: string,
): CheckpointInfo {
  return {
    id: `t:${sequence}`,
    threadId: 't',
    sequence,
    step,
    status,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, sequence)).toISOString(),
    messageCount: 0,
    ...(next === undefined ? {} : { currentNodeId: next }),
  };
}

describe('nodeTimeline', () => {
  it('names the node each checkpoint finished, with pauses, failures and retries', () => {
    const entries = nodeTimeline(
      [
        checkpoint(1, 1, 'RUNNING', 'ask'),
        checkpoint(2, 1, 'PAUSED', 'ask'),
        checkpoint(3, 2, 'RUNNING', 'call'),
        checkpoint(4, 2, 'FAILED', 'call'),
        checkpoint(5, 3, 'COMPLETED'),
      ],
      'begin',
    );
    expect(entries.map((e) => [e.step, e.nodeId, e.status, e.attempt, e.durationMs])).toEqual([
      [1, 'begin', 'completed', 1, undefined],
      [1, 'ask', 'paused', 1, 1000],
      [2, 'ask', 'completed', 1, 1000],
      [2, 'call', 'failed', 1, 1000],
      [3, 'call', 'completed', 2, 1000],
    ]);
  });
});
