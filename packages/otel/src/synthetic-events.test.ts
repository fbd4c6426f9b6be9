import { SpanStatusCode } from '@opentelemetry/api';
import { SkeinEmitter } from '@skein/core';
import { describe, expect, it } from 'vitest';
import { instrumentSkein } from './index.js';
import { startTracing } from './test-support/tracing.js';

// Events the engine emits in cases hard to stage with a whole workflow (branch and child threads,
// a rejected approval), sent through a real emitter.
function setup() {
  const tracing = startTracing();
  const events = new SkeinEmitter();
  instrumentSkein({ events }, { tracer: tracing.tracer });
  return { tracing, events };
}

describe('branch and child threads', () => {
  it('hang under the parent node that is open, else under the parent thread', () => {
    const { tracing, events } = setup();
    events.emit('thread:started', { threadId: 'p', workflowId: 'parent', workflowVersion: '1' });
    events.emit('node:started', { threadId: 'p', nodeId: 'fanout', nodeType: 'PARALLEL', step: 0 });
    const branch = { parentThreadId: 'p', rootThreadId: 'p', branchPath: 'fanout/a' };
    events.emit('thread:started', {
      threadId: 'p.a',
      workflowId: 'child',
      workflowVersion: '1',
      ...branch,
    });
    events.emit('node:started', {
      threadId: 'p.a',
      nodeId: 'n',
      nodeType: 'VARIABLE',
      step: 0,
      ...branch,
    });
    events.emit('node:completed', {
      threadId: 'p.a',
      nodeId: 'n',
      nodeType: 'VARIABLE',
      step: 0,
      durationMs: 1,
      ...branch,
    });
    events.emit('thread:completed', { threadId: 'p.a', status: 'COMPLETED', steps: 1, ...branch });
    events.emit('node:completed', {
      threadId: 'p',
      nodeId: 'fanout',
      nodeType: 'PARALLEL',
      step: 0,
      durationMs: 2,
    });
    // Between nodes: a child thread goes under the parent thread itself.
    events.emit('thread:started', {
      threadId: 'p.b',
      workflowId: 'child',
      workflowVersion: '1',
      parentThreadId: 'p',
    });
    events.emit('thread:completed', {
      threadId: 'p.b',
      status: 'COMPLETED',
      steps: 0,
      parentThreadId: 'p',
    });
    events.emit('thread:completed', { threadId: 'p', status: 'COMPLETED', steps: 1 });

    expect(tracing.tree()).toEqual([
      {
        name: 'invoke_workflow parent',
        children: [
          {
            name: 'skein.node fanout',
            children: [
              {
                name: 'invoke_workflow child',
                children: [{ name: 'skein.node n', children: [] }],
              },
            ],
          },
          { name: 'invoke_workflow child', children: [] },
        ],
      },
    ]);
    const child = tracing
      .spans()
      .find(
        (s) => s.name === 'invoke_workflow child' && s.attributes['skein.thread.id'] === 'p.a',
      )!;
    expect(child.attributes).toMatchObject({
      'skein.thread.parent_id': 'p',
      'skein.thread.root_id': 'p',
      'skein.thread.branch_path': 'fanout/a',
    });
  });

  it('start their own trace when the parent is not traced', () => {
    const { tracing, events } = setup();
    events.emit('thread:started', {
      threadId: 'orphan',
      workflowId: 'child',
      workflowVersion: '1',
      parentThreadId: 'gone',
    });
    events.emit('thread:completed', { threadId: 'orphan', status: 'COMPLETED', steps: 0 });
    expect(tracing.span('invoke_workflow child').parentSpanContext).toBeUndefined();
  });
});

describe('tool calls that never ran', () => {
  it('become an error span of their own; a late error on an ended call is a node event', () => {
    const { tracing, events } = setup();
    const at = { threadId: 't', nodeId: 'plan' };
    events.emit('node:started', { ...at, nodeType: 'LLM', step: 3 });
    events.emit('tool:error', {
      ...at,
      toolCallId: 'c1',
      name: 'pay',
      code: 'TOOL_REJECTED',
      message: 'the call to "pay" was not approved',
    });
    events.emit('tool:call', { ...at, toolCallId: 'c2', name: 'quote', arguments: '{}' });
    events.emit('tool:result', {
      ...at,
      toolCallId: 'c2',
      name: 'quote',
      content: '1',
      isError: false,
      durationMs: 1,
    });
    events.emit('tool:error', {
      ...at,
      toolCallId: 'c2',
      name: 'quote',
      code: 'TOOL_RESULT_NOT_STORABLE',
      message: 'too big',
    });
    events.emit('warning', { ...at, code: 'MAX_TOOL_ROUNDS', message: 'stopped' });
    events.emit('node:completed', { ...at, nodeType: 'LLM', step: 3, durationMs: 5 });
    events.emit('thread:completed', { threadId: 't', status: 'COMPLETED', steps: 4 });

    const rejected = tracing.span('execute_tool pay');
    expect(rejected.status.code).toBe(SpanStatusCode.ERROR);
    expect(rejected.attributes['error.type']).toBe('TOOL_REJECTED');
    expect(tracing.span('execute_tool quote').status.code).toBe(SpanStatusCode.OK);
    const node = tracing.span('invoke_agent plan');
    expect(node.events.map((e) => [e.name, e.attributes])).toEqual([
      [
        'skein.tool.error',
        {
          'gen_ai.tool.call.id': 'c2',
          'gen_ai.tool.name': 'quote',
          'error.type': 'TOOL_RESULT_NOT_STORABLE',
        },
      ],
      ['skein.warning', { 'skein.warning.code': 'MAX_TOOL_ROUNDS' }],
    ]);
    // A thread first seen mid-run (a resume) is named without its workflow.
    expect(tracing.span('invoke_workflow').attributes['skein.thread.status']).toBe('COMPLETED');
  });
});
