import { SkeinError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { SkeinEngine } from '../engine/skein-engine.js';
import type { NodeHandler } from '../nodes/node-handler.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';

function engine(handlers = {}) {
  const e = new SkeinEngine({ handlers });
  e.registerWorkflow(
    new WorkflowBuilder('w', '1')
      .variables({ defaults: { n: 1 } })
      .start()
      .variable('calc', { assign: { ratio: 'vars.n / vars.zero' } })
      .end('end', { output: 'vars.ratio' })
      .chain('start', 'calc', 'end')
      .build(),
  );
  e.registerWorkflow(
    new WorkflowBuilder('ask', '1')
      .start()
      .userInteraction('q', { variable: 'answer' })
      .end('end', { output: 'vars.answer' })
      .chain('start', 'q', 'end')
      .build(),
  );
  return e;
}

function thrown(fn: () => unknown): SkeinError {
  try {
    fn();
  } catch (error) {
    if (SkeinError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('nothing was thrown');
}

describe('values JSON cannot carry are refused where they enter thread state', () => {
  it('initial variables and input: a typed error naming the place, not a DOMException', () => {
    const e = engine();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ variables: { f: () => 1 } }, 'vars.f', /a function/],
      [{ variables: { deep: { big: 10n } } }, 'vars.deep.big', /BigInt/],
      [{ variables: { x: Number.NaN } }, 'vars.x', /NaN/],
      [{ variables: { x: -Infinity } }, 'vars.x', /-Infinity/],
      [{ variables: { when: new Date(0) } }, 'vars.when', /instance of Date/],
      [{ input: { id: 1n } }, 'input.id', /BigInt/],
    ];
    for (const [options, path, reason] of cases) {
      const error = thrown(() => e.createThread('w', options));
      expect(error.code, path).toBe('VALUE_NOT_JSON');
      expect(error.details).toMatchObject({ path });
      expect(error.message).toMatch(reason);
    }
    expect(thrown(() => e.createThread('w', { variables: 'abc' as never })).code).toBe(
      'INVALID_ARGUMENT',
    );
  });

  it('a VARIABLE node computing Infinity fails the thread with the variable named', async () => {
    const { result, thread } = await engine().run('w', { variables: { zero: 0 } });
    expect(result.status).toBe('FAILED');
    expect(result.error).toMatchObject({ code: 'VALUE_NOT_JSON', path: 'vars.ratio' });
    expect(result.error!.message).toMatch(
      /^Variable "ratio" cannot be stored: vars.ratio is Infinity/,
    );
    expect(thread.variables).not.toHaveProperty('ratio');
  });

  it('setVariable refuses and leaves the state as it was', () => {
    const thread = engine().createThread('w');
    const before = thread.state;
    for (const value of [1n, Number.NaN, () => 1, new Map(), { a: { b: Symbol('x') } }])
      expect(thrown(() => thread.setVariable('v', value)).code).toBe('VALUE_NOT_JSON');
    expect(thrown(() => thread.setVariables({ ok: 1, bad: 2n })).code).toBe('VALUE_NOT_JSON');
    expect(thread.state).toBe(before);
  });

  it('an answer JSON cannot carry is refused as resume input; the thread stays paused', async () => {
    const e = engine();
    const { thread } = await e.run('ask');
    const paused = thread.state;
    await expect(e.resume(thread, { at: 5n })).rejects.toMatchObject({
      code: 'RESUME_INPUT_INVALID',
    });
    expect(thread.status).toBe('PAUSED');
    expect(thread.variables).toEqual(paused.variables);
    expect((await e.resume(thread, { at: 5 })).result.output).toEqual({ at: 5 });
  });

  it('a node output JSON cannot carry fails the node, naming it', async () => {
    const dated: NodeHandler = () => ({ kind: 'next', output: { at: new Date(0) } });
    const e = engine({ ROUTE: dated });
    e.registerWorkflow(
      new WorkflowBuilder('route', '1')
        .start()
        .route('when')
        .end('end')
        .chain('start', 'when', 'end')
        .build(),
    );
    const run = await e.run('route');
    expect(run.result.status).toBe('FAILED');
    expect(run.result.error).toMatchObject({ code: 'VALUE_NOT_JSON', path: 'nodes.when.at' });
  });
});

describe('what a thread hands out cannot change it', () => {
  it('variables, input, tools and node outputs are frozen copies', async () => {
    const e = engine();
    const input = { order: { id: 7 } };
    const variables = { n: 2, zero: 1, tags: ['a'] };
    const thread = e.createThread('w', { input, variables });
    input.order.id = 8;
    variables.tags.push('b');
    expect(Object.isFrozen(variables.tags)).toBe(false);
    expect(thread.state.input).toEqual({ order: { id: 7 } });
    expect(thread.variables.tags).toEqual(['a']);
    expect(() => {
      (thread.variables as Record<string, unknown>).n = 99;
    }).toThrow(TypeError);
    expect(() => (thread.variables.tags as string[]).push('c')).toThrow(TypeError);
    expect(() => (thread.state.dynamicTools as string[]).push('x')).toThrow(TypeError);
    expect(() => (thread.availableTools.dynamic as unknown[]).push({})).toThrow(TypeError);
    expect(() => (thread.availableTools.initial as unknown[]).push({})).toThrow(TypeError);
    const mine = { list: [1] };
    thread.setVariable('mine', mine);
    mine.list.push(2);
    expect(thread.variables.mine).toEqual({ list: [1] });
    expect(Object.isFrozen(mine)).toBe(false);
    const { result } = await e.run(thread);
    expect(result.output).toBe(2);
    expect(thread.variables.n).toBe(2);
  });
});
