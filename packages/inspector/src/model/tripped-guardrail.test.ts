import { describe, expect, it } from 'vitest';
import { threadSummary } from './thread-summary.js';
import { trippedGuardrail } from './tripped-guardrail.js';

const info = {
  threadId: 't1',
  workflowId: 'w',
  workflowVersion: '1',
  status: 'FAILED' as const,
  step: 2,
  updatedAt: '2026-11-30T00:00:00.000Z',
  checkpoints: 2,
  lastCheckpointId: 't1:2',
};

describe('a guardrail trip in the thread summary', () => {
  it('carries the stored trip with the last error', () => {
    const guardrail = {
      name: 'noSecrets',
      stage: 'tool-result',
      reason: 'a PIN',
      endsChat: true,
      toolCallId: 'call_1',
      toolName: 'pin',
    };
    const summary = threadSummary(
      info,
      {
        messageCount: 0,
        error: {
          code: 'GUARDRAIL_TRIPPED',
          message: 'Guardrail "noSecrets" tripped',
          nodeId: 'n',
          guardrail,
        },
      } as never,
      [],
    );
    expect(summary.lastError).toEqual({
      code: 'GUARDRAIL_TRIPPED',
      message: 'Guardrail "noSecrets" tripped',
      nodeId: 'n',
      guardrail,
    });
  });

  it('leaves out a trip that is not the shape the engine stores, and any extra field', () => {
    expect(trippedGuardrail(undefined)).toBeUndefined();
    expect(trippedGuardrail('noSecrets')).toBeUndefined();
    expect(trippedGuardrail({ name: 'x', stage: 'output' })).toBeUndefined();
    expect(trippedGuardrail({ name: 1, stage: 'output', reason: 'r' })).toBeUndefined();
    expect(
      trippedGuardrail({ name: 'x', stage: 'output', reason: 'r', endsChat: 'yes', html: '<b>' }),
    ).toEqual({ name: 'x', stage: 'output', reason: 'r' });
  });
});
