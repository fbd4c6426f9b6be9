import { describe, expect, it } from 'vitest';
import { SkeinEngine } from '../engine/skein-engine.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';

function engine() {
  const e = new SkeinEngine();
  e.registerWorkflow(
    new WorkflowBuilder('w', '1')
      .start()
      .userInteraction('q')
      .end('end')
      .chain('start', 'q', 'end')
      .build(),
  );
  return e;
}

describe('numeric execute and resume options', () => {
  it('maxSteps outside 1..2^53-1 or not whole is refused by name and range, state untouched', async () => {
    const e = engine();
    const thread = e.createThread('w');
    const before = thread.state;
    for (const maxSteps of [Number.NaN, -1, 0, 1.5, Infinity, '10' as unknown as number]) {
      await expect(e.run(thread, { maxSteps }), String(maxSteps)).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        argument: 'maxSteps',
        message: expect.stringMatching(
          /^maxSteps must be an integer from 1 to 9007199254740991, got /,
        ),
      });
      expect(thread.state).toBe(before);
      expect(thread.running).toBe(false);
    }
    expect((await e.run(thread, { maxSteps: 5 })).result.status).toBe('PAUSED');
    const paused = thread.state;
    await expect(e.resume(thread, 'hi', { maxSteps: Number.NaN })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: 'maxSteps',
    });
    expect(thread.state).toBe(paused);
    expect((await e.resume(thread, 'hi', { maxSteps: 2 })).result.status).toBe('COMPLETED');
  });

  it('the engine refuses a tool time limit Node timers cannot keep', () => {
    for (const toolTimeoutMs of [Number.NaN, -1, 0, 2 ** 31, Infinity])
      expect(() => new SkeinEngine({ toolTimeoutMs }), String(toolTimeoutMs)).toThrow(
        expect.objectContaining({
          code: 'INVALID_ARGUMENT',
          message: expect.stringMatching(/^toolTimeoutMs must be a number from 1 to 2147483647/),
        }),
      );
    expect(() => new SkeinEngine({ toolTimeoutMs: 2 ** 31 - 1 })).not.toThrow();
  });
});
