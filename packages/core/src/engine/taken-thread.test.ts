import { afterEach, describe, expect, it, vi } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import { chatWorkflow } from '../workflow/chat-workflow.js';
import { SkeinEngine } from './skein-engine.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('a message for a thread another process has leased but not yet stored RUNNING', () => {
  it('is tried again after waits that grow, not in a loop that starves the process, and is taken once the lease is free', async () => {
    const store = new InMemoryCheckpointStore();
    const llm = new ScriptedLLMClient([(r) => ({ content: `re: ${r.messages.at(-1)?.content}` })], {
      whenExhausted: 'repeat-last',
    });
    const engine = new SkeinEngine({ llm, store });
    engine.registerWorkflow(chatWorkflow({ systemPrompt: 'Be brief.' }));
    await engine.send('t1', 'hello');
    // Another process takes the lease; its first save (RUNNING) has not happened yet.
    await store.acquireLease('t1', {
      owner: 'other',
      expiresAt: Date.now() + 600_000,
      now: Date.now(),
    });
    let tries = 0;
    const acquire = store.acquireLease.bind(store);
    store.acquireLease = (threadId, lease) => {
      tries++;
      return acquire(threadId, lease);
    };
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const sent = engine.send('t1', 'again');
    await vi.advanceTimersByTimeAsync(2_000);
    // 5, 10, 20, … ms, then every 250 ms: about a dozen tries in two seconds, not millions.
    expect(tries).toBeGreaterThan(2);
    expect(tries).toBeLessThan(20);
    await store.releaseLease('t1', 'other');
    await vi.advanceTimersByTimeAsync(300);
    const { thread } = await sent;
    const texts = thread.conversation.getAllMessages().map((m) => m.content);
    expect(texts.filter((t) => t === 'again')).toHaveLength(1);
    expect(texts.at(-1)).toBe('re: again');
  });
});
