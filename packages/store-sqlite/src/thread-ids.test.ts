import { chatWorkflow, SkeinEngine } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { describe, expect, it } from 'vitest';
import { openStore } from './test-support/driver.js';

function chat() {
  const store = openStore({ filename: ':memory:' });
  const llm = new ScriptedLLMClient([{ content: 'hi' }], { whenExhausted: 'repeat-last' });
  const engine = new SkeinEngine({ llm, store });
  engine.registerWorkflow(chatWorkflow({ systemPrompt: 'Be brief.' }));
  return { engine, store };
}

describe('thread ids on SQLite', () => {
  it('refuses an id SQLite would store changed (a lone surrogate becomes U+FFFD), storing nothing', async () => {
    const { engine, store } = chat();
    // Before the check: CHECKPOINT_CONFLICT, and a stray RUNNING thread under the mangled id.
    await expect(engine.send('id-\uD800', 'x')).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: 'threadId',
    });
    await expect(engine.run('chat', { threadId: 'id-\uDFFF' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(await store.listThreads()).toEqual([]);
    store.close();
  });

  it('keeps a well-formed id with astral characters exactly, turn after turn', async () => {
    const { engine, store } = chat();
    await engine.send('🧶-chat', 'one');
    const { result } = await engine.send('🧶-chat', 'two');
    expect(result.status).toBe('COMPLETED');
    expect((await store.listThreads()).map((t) => t.threadId)).toEqual(['🧶-chat']);
    store.close();
  });
});
