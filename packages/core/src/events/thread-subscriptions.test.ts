import { describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import { countTo } from '../test-support/executor-fixtures.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import { chatWorkflow } from '../workflow/chat-workflow.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';
import type { ListenerErrorEvent } from './event-map.js';
import type { ThreadEvent } from './thread-event.js';

function engine() {
  const e = new SkeinEngine({
    llm: new ScriptedLLMClient([{ content: 'hello there' }], { whenExhausted: 'repeat-last' }),
    store: new InMemoryCheckpointStore(),
  });
  e.registerWorkflow(countTo(2));
  e.registerWorkflow(chatWorkflow());
  return e;
}

describe('engine.subscribe', () => {
  it('hears one thread’s events, typed by name, until unsubscribed', async () => {
    const e = engine();
    const heard: ThreadEvent[] = [];
    const stop = e.subscribe('a', (event) => heard.push(event));
    await Promise.all([e.run('loop', { threadId: 'a' }), e.run('loop', { threadId: 'b' })]);
    expect(heard.every((ev) => ev.type === 'warning' || ev.threadId === 'a')).toBe(true);
    // The thread's first batch starts as it is built, before its run.
    expect(heard.slice(0, 2).map((ev) => ev.type)).toEqual(['batch:started', 'thread:started']);
    expect(heard.at(-1)).toMatchObject({ type: 'thread:completed', output: 2 });
    const nodes = heard.flatMap((ev) => (ev.type === 'node:started' ? [ev.nodeId] : []));
    expect(nodes).toEqual(['start', 'inc', 'check', 'inc', 'check', 'end']);
    stop();
    stop();
    const count = heard.length;
    await e.run('loop', { threadId: 'a2' });
    await e.send('a', 'more?', { workflowId: 'loop' }).catch(() => undefined);
    expect(heard.length).toBe(count);
    // Nobody subscribes any more: the emitter has no listeners left.
    expect(e.events.listenerCount('node:started')).toBe(0);
  });

  it('gives run, send and resume an onEvent for the call', async () => {
    const e = engine();
    const tokens: string[] = [];
    const { result } = await e.send('c', 'hi', {
      onEvent: (event) => {
        if (event.type === 'llm:token') tokens.push(event.delta);
      },
    });
    expect(result.status).toBe('COMPLETED');
    expect(tokens.join('')).toBe('hello there');
    expect(e.events.listenerCount('llm:token')).toBe(0);
  });

  it('hears a thread’s branches, which name it as their parent', async () => {
    const e = engine();
    e.registerWorkflow(
      new WorkflowBuilder('fan', '1')
        .variables({ defaults: { items: [1, 2] } })
        .start()
        .map('each', { items: 'vars.items', start: 'double', join: 'join' })
        .variable('double', { assign: { d: 'vars.item * 2' } })
        .join('join', { output: 'vars.d', outputVariable: 'ds' })
        .end('end', { output: 'vars.ds' })
        .chain('start', 'each')
        .chain('double', 'join', 'end')
        .build(),
    );
    const heard: ThreadEvent[] = [];
    e.subscribe('f', (event) => heard.push(event));
    await e.run('fan', { threadId: 'f' });
    const branchNodes = heard.filter((ev) => ev.type === 'node:completed' && ev.threadId !== 'f');
    expect(branchNodes.map((ev) => (ev as { nodeId: string }).nodeId)).toEqual([
      'double',
      'double',
    ]);
    expect(branchNodes.every((ev) => 'parentThreadId' in ev && ev.parentThreadId === 'f')).toBe(
      true,
    );
  });

  it('keeps the other listeners and the run going when one throws', async () => {
    const e = engine();
    const errors: ListenerErrorEvent[] = [];
    e.events.on('error', (err) => errors.push(err));
    const heard: string[] = [];
    e.subscribe('t', () => {
      throw new Error('bug');
    });
    e.subscribe('t', (event) => heard.push(event.type));
    const { result } = await e.run('loop', { threadId: 't' });
    expect(result.status).toBe('COMPLETED');
    expect(heard).toContain('thread:completed');
    expect(errors.map((err) => err.event)).toContain('thread:started');
    expect(errors[0]).toMatchObject({ threadId: 't', error: { code: 'LISTENER_FAILED' } });
  });

  it('refuses what is not a thread id or a function', () => {
    const e = engine();
    expect(() => e.subscribe('', () => {})).toThrow(/a thread id must not be empty/);
    expect(() => e.subscribe('x', 'nope' as never)).toThrow(/listener must be a function/);
  });
});
