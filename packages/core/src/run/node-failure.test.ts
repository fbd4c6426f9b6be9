import { SkeinError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import type { NodeFailedEvent } from '../events/event-map.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';
import { isNodeFailure, nodeFailure } from './node-failure.js';

/** ROUTE node `call` fails with a SkeinError of its own, as a tool or model error would. */
function engineWithFailingNode() {
  const engine = new SkeinEngine({
    store: new InMemoryCheckpointStore(),
    handlers: {
      ROUTE: ({ node }) => {
        if (node.id === 'call') throw new SkeinError('TOOL_NOT_FOUND', 'no tool "nowhere"');
        return { kind: 'next' };
      },
    },
  });
  engine.registerWorkflow(
    new WorkflowBuilder('w', '1')
      .start()
      .route('before')
      .route('call')
      .end()
      .chain('start', 'before', 'call', 'end')
      .build(),
  );
  return engine;
}

describe('node failures say where they happened', () => {
  it('a SkeinError keeps its class and code and gains thread, node and checkpoint', async () => {
    const engine = engineWithFailingNode();
    const failed: NodeFailedEvent[] = [];
    engine.events.on('node:failed', (e) => failed.push(e));
    const { thread, result } = await engine.run('w');
    expect(result.status).toBe('FAILED');
    const error = result.error;
    expect(error?.code).toBe('TOOL_NOT_FOUND');
    expect(isNodeFailure(error)).toBe(true);
    if (!isNodeFailure(error)) return;
    expect(error.threadId).toBe(thread.threadId);
    expect(error.nodeId).toBe('call');
    expect(error.lastCheckpointId).toBe(`${thread.threadId}:2`);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.lastCheckpointId).toBe(`${thread.threadId}:2`);
    expect(failed[0]!.error).toEqual({
      code: 'TOOL_NOT_FOUND',
      message: error.message,
      threadId: thread.threadId,
      nodeId: 'call',
      lastCheckpointId: `${thread.threadId}:2`,
    });
  });

  it('anything else is wrapped in NODE_FAILED with the original as cause', () => {
    const cause = new TypeError('boom');
    const error = nodeFailure(cause, 't', 'n', undefined);
    expect(error.code).toBe('NODE_FAILED');
    expect(error.cause).toBe(cause);
    expect(error).toMatchObject({ threadId: 't', nodeId: 'n' });
    expect(error.lastCheckpointId).toBeUndefined();
  });

  it('a frozen SkeinError is wrapped, its code still reachable through cause', () => {
    const original = Object.freeze(new SkeinError('OWN_CODE', 'frozen'));
    const error = nodeFailure(original, 't', 'n', 'cp');
    expect(error.code).toBe('NODE_FAILED');
    expect(SkeinError.hasCode(error.cause, 'OWN_CODE')).toBe(true);
    expect(error.lastCheckpointId).toBe('cp');
  });
});
