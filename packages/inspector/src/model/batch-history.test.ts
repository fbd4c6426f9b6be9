import { ConversationManager } from '@skein/conversation';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchHistory } from './batch-history.js';

type Step =
  | { kind: 'add'; role: 'user' | 'assistant' | 'system' }
  | { kind: 'clear'; keepSystemMessage: boolean }
  | { kind: 'batch'; boundary: number; withTools: boolean }
  | { kind: 'rollback'; batch: number }
  | { kind: 'truncate'; count: number }
  | { kind: 'usage'; tokens: number }
  | { kind: 'revert'; back: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      role: fc.constantFrom('user' as const, 'assistant' as const, 'system' as const),
    }),
  },
  fc.record({ kind: fc.constant('clear' as const), keepSystemMessage: fc.boolean() }),
  fc.record({ kind: fc.constant('batch' as const), boundary: fc.nat(30), withTools: fc.boolean() }),
  fc.record({ kind: fc.constant('rollback' as const), batch: fc.nat(5) }),
  fc.record({ kind: fc.constant('truncate' as const), count: fc.nat(6) }),
  fc.record({ kind: fc.constant('usage' as const), tokens: fc.integer({ min: 1, max: 500 }) }),
  fc.record({ kind: fc.constant('revert' as const), back: fc.nat(4) }),
);

const TOOLS = [{ name: 'calc', description: 'Adds', parameters: { type: 'object' } }];

/** Drives a real conversation; steps the manager refuses are skipped, as a workflow would fail them. */
function play(steps: readonly Step[]): ConversationManager {
  const conversation = new ConversationManager({ initialTools: () => TOOLS });
  const cursors = [conversation.cursor()];
  let n = 0;
  for (const s of steps) {
    try {
      switch (s.kind) {
        case 'add':
          conversation.addMessage({ role: s.role, content: `m${n++}` });
          break;
        case 'clear':
          conversation.applyOperation({ type: 'CLEAR', keepSystemMessage: s.keepSystemMessage });
          break;
        case 'batch': {
          const boundary = Math.min(s.boundary, conversation.getTotalMessageCount());
          if (s.withTools) conversation.startNewBatchWithInitialTools(boundary);
          else conversation.startNewBatch(boundary);
          break;
        }
        case 'rollback':
          conversation.rollbackToBatch(Math.min(s.batch, conversation.currentBatch));
          break;
        case 'truncate':
          conversation.applyOperation({ type: 'TRUNCATE', keep: 'last', count: s.count });
          break;
        case 'usage':
          conversation.recordUsage({
            promptTokens: s.tokens,
            completionTokens: 1,
            totalTokens: s.tokens + 1,
          });
          break;
        case 'revert':
          conversation.revertTo(cursors[Math.max(0, cursors.length - 1 - s.back)]!);
          break;
      }
    } catch {
      // refused: nothing changed
    }
    cursors.push(conversation.cursor());
  }
  return conversation;
}

describe('batchHistory', () => {
  it('agrees with @skein/conversation on the batch stack and the current view', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const conversation = play(steps);
        const { messages, log } = conversation.snapshot();
        const { batches } = batchHistory(messages.length, log);
        const onStack = batches.filter((b) => b.onStack);
        expect(
          onStack.map((b) => ({
            startedAt: b.startedAt,
            visibleCount: b.visible.length,
            withInitialTools: b.withInitialTools,
          })),
        ).toEqual(
          conversation.listBatches().map((b) => ({
            startedAt: b.startedAt,
            visibleCount: b.visibleCount,
            withInitialTools: b.withInitialTools,
          })),
        );
        const current = batches.filter((b) => b.current);
        expect(current).toHaveLength(1);
        expect(current[0]!.visible.map((p) => messages[p])).toEqual([
          ...conversation.getMessages(),
        ]);
        expect(batches.map((b) => b.index)).toEqual(batches.map((_, i) => i));
        expect(onStack.map((b) => b.usage)).toEqual([...conversation.getUsage().byBatch]);
        // Without a restore (which copies earlier totals into new records), every token is in
        // exactly one record.
        if (!log.some((e) => e.op === 'restore'))
          expect(batches.reduce((sum, b) => sum + b.usage.totalTokens, 0)).toBe(
            conversation.getUsage().total.totalTokens,
          );
      }),
      { numRuns: 300 },
    );
  });

  it('keeps batches a rollback dropped and marks the boundaries', () => {
    const conversation = new ConversationManager({ initialTools: () => TOOLS });
    conversation.startNewBatchWithInitialTools(0);
    conversation.addMessage({ role: 'user', content: 'a' });
    conversation.applyOperation({ type: 'CLEAR' });
    conversation.addMessage({ role: 'user', content: 'b' });
    conversation.rollbackToBatch(0);
    const { messages, log } = conversation.snapshot();
    const { batches, boundaries } = batchHistory(messages.length, log);
    expect(batches.map((b) => [b.index, b.stackIndex, b.onStack, b.current, b.visible])).toEqual([
      [0, 0, true, true, [0, 1]],
      [1, 1, false, false, [0, 2]],
    ]);
    expect(boundaries.map((b) => `${b.kind}@${b.at}`)).toEqual(['clear@2', 'rollback@3']);
  });
});
