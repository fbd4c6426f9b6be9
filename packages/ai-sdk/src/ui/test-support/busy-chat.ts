import { chatWorkflow, defineTool, InMemoryCheckpointStore, SkeinEngine } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { contentText, type LLMRequest } from '@skein/spec';

/** A promise with its resolver, for the order of a test's steps. */
function signal() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * A chat whose answer can be held half-way: `look it up` makes the model call `lookup`, which
 * runs (`running`) and returns only once the test calls `finish()`; after the tool the model says
 * `re: <the last user message>` (so a message steered in shows in the answer), and any other
 * message is answered `re: <text>` at once. `posted` resolves each time a message was stored in
 * the thread's inbox (the store's write returned), so a test opens the tool only after it.
 */
export function busyChat(store = new InMemoryCheckpointStore(), owner?: string) {
  const llm = new ScriptedLLMClient((request: LLMRequest) => {
    const lastUser = request.messages.filter((m) => m.role === 'user').at(-1);
    const text = lastUser ? contentText(lastUser.content) : '';
    if (request.messages.at(-1)?.role === 'user' && text === 'look it up')
      return { toolCalls: [{ id: 'call-lookup', name: 'lookup', arguments: { q: 'x' } }] };
    return { content: `re: ${text}` };
  });
  const started = signal();
  const done = signal();
  const lookup = defineTool({
    name: 'lookup',
    description: 'Looks something up',
    parameters: {
      type: 'object',
      properties: { q: { type: 'string' } },
      required: ['q'],
      additionalProperties: false,
    },
    execute: async ({ q }) => {
      started.resolve();
      await done.promise;
      return `found ${q}`;
    },
  });
  const engine = new SkeinEngine({ llm, store, ...(owner ? { owner } : {}) });
  engine.registerTools([lookup]);
  engine.registerWorkflow(chatWorkflow({ systemPrompt: 'Be brief.', tools: ['lookup'] }));
  let posts: (() => void)[] = [];
  const post = store.postMessage.bind(store);
  store.postMessage = async (threadId, message) => {
    const stored = await post(threadId, message);
    for (const call of posts) call();
    posts = [];
    return stored;
  };
  return {
    engine,
    llm,
    store,
    running: started.promise,
    finish: done.resolve,
    /** Resolves once the next message is stored in an inbox. */
    posted: () => new Promise<void>((resolve) => posts.push(resolve)),
  };
}
