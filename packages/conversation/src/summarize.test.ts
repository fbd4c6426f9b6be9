import type { LLMMessage, ToolSpec } from '@skein/spec';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SUMMARY_KIND } from './context-operations.js';
import { ConversationManager } from './conversation-manager.js';
import { isToolDescription } from './tool-description.js';

const calculator: ToolSpec = {
  name: 'calculator',
  description: 'Evaluates arithmetic',
  parameters: { type: 'object', properties: { expression: { type: 'string' } } },
};

function newThread() {
  const manager = new ConversationManager({ initialTools: () => [calculator] });
  manager.startNewBatchWithInitialTools(0);
  manager.addMessage({ role: 'system', content: 'You are terse.' });
  return manager;
}

let calls = 0;
/** One turn: a question, `tools` tool calls answered, then the answer. */
function turn(manager: ConversationManager, n: number, tools = 1): void {
  manager.addMessage({ role: 'user', content: `question ${n}` });
  for (let t = 0; t < tools; t++) {
    const id = `call_${++calls}`;
    manager.addMessage({
      role: 'assistant',
      content: '',
      toolCalls: [{ id, name: 'calculator', arguments: '{"expression":"1+1"}' }],
    });
    manager.addMessage({ role: 'tool', toolCallId: id, name: 'calculator', content: '2' });
  }
  manager.addMessage({ role: 'assistant', content: `answer ${n}` });
}

const describe_ = (m: LLMMessage) =>
  isToolDescription(m)
    ? 'description'
    : m.metadata?.kind === SUMMARY_KIND
      ? `summary: ${m.content}`
      : `${m.role}: ${typeof m.content === 'string' ? m.content : '[parts]'}${m.toolCalls ? ' [call]' : ''}`;

/** Every tool message answers a call shown before it, and every call shown is answered. */
function pairsWhole(view: readonly LLMMessage[]): boolean {
  const open = new Set<string>();
  for (const m of view) {
    for (const call of m.toolCalls ?? []) open.add(call.id);
    if (m.role === 'tool') {
      if (!open.has(m.toolCallId!)) return false;
      open.delete(m.toolCallId!);
    }
  }
  return open.size === 0;
}

describe('SUMMARIZE', () => {
  it('starts a batch: system prompt, the tool description once, the summary, the last turns whole', () => {
    const manager = newThread();
    turn(manager, 1);
    turn(manager, 2, 2);
    turn(manager, 3);
    const stored = manager.getTotalMessageCount();
    const before = manager.getMessages();
    // What the summary will stand for, asked first: all shown but the system messages, the
    // description and the turn kept.
    const source = manager.getMessagesToSummarize(1);
    expect(source).toHaveLength(10);
    expect(describe_(source[0]!)).toBe('user: question 1');
    expect(manager.getMessagesToSummarize(10)).toEqual([]);
    expect(() => manager.getMessagesToSummarize(-1)).toThrow(
      expect.objectContaining({ argument: 'keepTurns' }),
    );
    const result = manager.applyOperation({
      type: 'SUMMARIZE',
      summary: 'Asked 1+1 twice.',
      keepTurns: 1,
    });
    expect(result).toMatchObject({ type: 'SUMMARIZE', batchStarted: true, batch: 1 });
    expect(manager.getMessages().map(describe_)).toEqual([
      'system: You are terse.',
      'description',
      'summary: Asked 1+1 twice.',
      'user: question 3',
      'assistant:  [call]',
      'tool: 2',
      'assistant: answer 3',
    ]);
    // Nothing is lost: the summary is stored, and every earlier message stays.
    expect(manager.getTotalMessageCount()).toBe(stored + 1);
    const summary = manager.getMessages()[2]!;
    expect(summary).toMatchObject({ role: 'user', metadata: { kind: 'summary', summarized: 10 } });
    // Rolling back shows the earlier view, message for message.
    manager.rollbackToBatch(0);
    expect(manager.getMessages()).toEqual(before);
  });

  it('keeps no turn by default, takes a system role when asked, and refuses bad input naming it', () => {
    const manager = newThread();
    turn(manager, 1);
    manager.applyOperation({ type: 'SUMMARIZE', summary: 'One sum.', role: 'system' });
    // A system summary is one of the leading system messages: the description follows them.
    expect(manager.getMessages().map(describe_)).toEqual([
      'system: You are terse.',
      'summary: One sum.',
      'description',
    ]);
    expect(manager.getMessages()[2]!.role).toBe('system');
    const views = manager.listBatches().length;
    for (const [op, argument] of [
      [{ type: 'SUMMARIZE', summary: '  ' }, 'operation.summary'],
      [{ type: 'SUMMARIZE', summary: 'x', keepTurns: -1 }, 'operation.keepTurns'],
      [{ type: 'SUMMARIZE', summary: 'x', role: 'tool' }, 'operation.role'],
    ] as const)
      expect(() => manager.applyOperation(op as never)).toThrow(
        expect.objectContaining({ argument }),
      );
    expect(manager.listBatches()).toHaveLength(views);
  });

  it('for any turns, summaries, clears and rollbacks: pairs stay whole, one description, rollbacks exact', () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('turn' as const), tools: fc.nat(3) }),
      fc.record({
        kind: fc.constant('summarize' as const),
        keep: fc.nat(3),
        role: fc.constantFrom('user' as const, 'system' as const),
      }),
      fc.constant({ kind: 'clear' as const }),
      fc.record({ kind: fc.constant('rollback' as const), back: fc.nat(4) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const manager = newThread();
        // The view each batch showed when the next one started: what a rollback must give back.
        const shown: LLMMessage[][] = [];
        let n = 0;
        for (const s of steps) {
          if (s.kind === 'turn') turn(manager, ++n, s.tools);
          else if (s.kind === 'rollback') {
            const target = Math.max(0, manager.currentBatch - 1 - s.back);
            if (target >= manager.currentBatch) continue;
            manager.rollbackToBatch(target);
            expect(manager.getMessages()).toEqual(shown[target]);
            shown.length = target;
          } else {
            shown[manager.currentBatch] = [...manager.getMessages()];
            manager.applyOperation(
              s.kind === 'clear'
                ? { type: 'CLEAR' }
                : { type: 'SUMMARIZE', summary: `summary ${n}`, keepTurns: s.keep, role: s.role },
            );
          }
          const view = manager.getMessages();
          expect(pairsWhole(view)).toBe(true);
          expect(view.filter(isToolDescription)).toHaveLength(1);
          expect(view.filter((m) => m.content === 'You are terse.')).toHaveLength(1);
          expect(view.filter((m) => m.metadata?.kind === SUMMARY_KIND).length).toBeLessThanOrEqual(
            1,
          );
        }
      }),
    );
  });
});
