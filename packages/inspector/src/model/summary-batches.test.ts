import { ConversationManager } from '@skein/conversation';
import { describe, expect, it } from 'vitest';
import { batchHistory } from './batch-history.js';
import { markSummaries } from './summary-batches.js';

describe('markSummaries', () => {
  it('marks the batch a SUMMARIZE started, and says so where it starts', () => {
    const conversation = new ConversationManager({
      initialTools: () => [{ name: 'add', description: 'Adds', parameters: { type: 'object' } }],
    });
    conversation.startNewBatchWithInitialTools();
    conversation.addMessage({ role: 'user', content: 'one' });
    conversation.addMessage({ role: 'assistant', content: 'two' });
    conversation.applyOperation({ type: 'CLEAR' });
    conversation.addMessage({ role: 'user', content: 'three' });
    conversation.addMessage({ role: 'assistant', content: 'four' });
    conversation.addMessage({ role: 'user', content: 'five' });
    conversation.applyOperation({ type: 'SUMMARIZE', summary: 'three and four', keepTurns: 1 });
    const { messages, log } = conversation.snapshot();
    const history = batchHistory(messages.length, log);
    const { batches, boundaries } = markSummaries(history.batches, history.boundaries, messages);

    const summary = messages.findIndex((m) => m.metadata?.kind === 'summary');
    expect(batches.map((b) => b.summary)).toEqual([
      undefined,
      undefined,
      { position: summary, summarized: 2 },
    ]);
    expect(boundaries.map((b) => b.kind)).toEqual(['clear', 'summary']);
    expect(boundaries[1]!.label).toBe(
      'batch 2 starts with a summary of 2 earlier messages (they stay stored)',
    );
  });
});
