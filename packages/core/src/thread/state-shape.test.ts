import { describe, expect, it } from 'vitest';
import { SkeinEngine } from '../engine/skein-engine.js';
import { oneHiddenClass } from '../executor/executor-fixtures.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';
import type { ThreadState } from './thread-state.js';

describe('thread states', () => {
  it('a new thread state has the keys, in order, and the hidden class of every later state', async () => {
    // Code that reads states (every transition, every expression scope) stays monomorphic only
    // while every state of a thread has one hidden class, the first one included.
    const engine = new SkeinEngine();
    engine.registerWorkflow(
      new WorkflowBuilder('w', '1')
        .variables({ defaults: { n: 1 } })
        .start()
        .variable('v', { assign: { n: 'vars.n + 1' } })
        .end('end', { output: 'vars.n' })
        .chain('start', 'v', 'end')
        .build(),
    );
    const thread = engine.createThread('w');
    const states: ThreadState[] = [thread.state];
    engine.events.on('node:completed', () => states.push(thread.state));
    const result = await engine.execute(thread);
    states.push(thread.state);
    expect(result.output).toBe(2);
    expect(states.length).toBeGreaterThan(3);
    for (const state of states) expect(Object.keys(state)).toEqual(Object.keys(states[0]!));
    expect(oneHiddenClass(states)).toBe(true);
  });
});
