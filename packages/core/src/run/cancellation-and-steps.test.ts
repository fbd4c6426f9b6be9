import { describe, expect, it } from 'vitest';
import { collect, engineWith, oneLLM } from '../test-support/executor-fixtures.js';
import type { Tool } from '../tools/tool.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';

describe('cancellation', () => {
  it('an abort mid-stream cancels the thread and leaves the conversation as it was', async () => {
    const { engine, llm } = engineWith([
      { content: 'a long answer that streams slowly', tokenDelayMs: 15 },
    ]);
    engine.registerWorkflow(oneLLM());
    const controller = new AbortController();
    const tokens = collect(engine, 'llm:token');
    engine.events.on('llm:token', () => {
      if (tokens.length === 2) controller.abort();
    });
    const thread = engine.createThread('one', { input: 'talk' });
    const { result } = await engine.run(thread, { signal: controller.signal });
    expect(result.status).toBe('CANCELLED');
    expect(result.error?.code).toBe('THREAD_CANCELLED');
    expect(tokens.length).toBe(2);
    expect(llm.calls[0]!.options.signal).toBe(controller.signal);
    expect(thread.conversation.getMessages().some((m) => m.role === 'assistant')).toBe(false);
  });

  it('an abort reaches running tools', async () => {
    let toolSawAbort = false;
    const controller = new AbortController();
    const waiter: Tool = {
      name: 'wait',
      description: 'waits for abort',
      parameters: { type: 'object' },
      execute: (_a, { signal }) => {
        const stopped = new Promise((_, reject) =>
          signal.addEventListener('abort', () => {
            toolSawAbort = true;
            reject(new Error('stopped'));
          }),
        );
        // Aborted once the tool runs: a timer started at `tool:call` could fire before the
        // tool had begun on a busy machine.
        queueMicrotask(() => controller.abort());
        return stopped;
      },
    };
    const { engine } = engineWith([{ toolCalls: [{ name: 'wait', arguments: {} }] }], [waiter]);
    engine.registerWorkflow(oneLLM({}, ['wait']));
    const result = await engine.run('one', { input: 'x', signal: controller.signal });
    expect(result.result.status).toBe('CANCELLED');
    expect(toolSawAbort).toBe(true);
  });

  it('maxSteps bounds the loop and the thread can continue afterwards', async () => {
    const def = new WorkflowBuilder('spin', '1')
      .variables({ defaults: { n: 0 } })
      .start()
      .variable('inc', { assign: { n: 'vars.n + 1' } })
      .end('end', { output: 'vars.n' })
      .edge('start', 'inc')
      .edge('inc', 'inc', { when: 'vars.n < 100' })
      .edge('inc', 'end')
      .build();
    const { engine } = engineWith([]);
    engine.registerWorkflow(def);
    const thread = engine.createThread('spin');
    const { result: first } = await engine.run(thread, { maxSteps: 10 });
    expect(first.status).toBe('FAILED');
    expect(first.error?.code).toBe('MAX_STEPS_EXCEEDED');
    expect(thread.variables.n).toBe(9);
    const { result: rest } = await engine.run(thread, { maxSteps: 1000 });
    expect(rest).toMatchObject({ status: 'COMPLETED', output: 100 });
  });
});
