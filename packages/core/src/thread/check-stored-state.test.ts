import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StoredThread } from '../checkpoint/checkpoint-store.js';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';
import { ThreadBuilder } from './thread-builder.js';
import type { ThreadContext } from './thread-context.js';

async function pausedThread() {
  const store = new InMemoryCheckpointStore();
  const engine = new SkeinEngine({ store });
  engine.registerWorkflow(
    new WorkflowBuilder('w', '1')
      .start()
      .userInteraction('q', { variable: 'answer' })
      .end('end', { output: 'vars.answer' })
      .chain('start', 'q', 'end')
      .build(),
  );
  await engine.run('w', { threadId: 't' });
  // Tampered records are rebuilt by a builder of the engine's registries, as a store's rows are.
  const builder = new ThreadBuilder({ workflows: engine.workflows, tools: engine.tools });
  const stored = JSON.parse(JSON.stringify(await store.load('t'))) as StoredThread;
  return { engine, builder, stored };
}

function tampered(stored: StoredThread, change: (state: Record<string, unknown>) => void) {
  const copy = structuredClone(stored) as unknown as { state: Record<string, unknown> };
  change(copy.state);
  return copy as unknown as StoredThread;
}

describe('a tampered stored state', () => {
  it('gives STATE_CORRUPT naming the field, not a TypeError', async () => {
    const { builder, stored } = await pausedThread();
    const cases: [(s: Record<string, unknown>) => void, string][] = [
      [(s) => (s.dynamicTools = 'abc'), 'state.dynamicTools'],
      [(s) => (s.dynamicTools = [1]), 'state.dynamicTools'],
      [(s) => (s.firedTriggers = {}), 'state.firedTriggers'],
      [(s) => (s.toolFailures = 'x'), 'state.toolFailures'],
      [(s) => (s.toolFailures = { a: -1 }), 'state.toolFailures["a"]'],
      [(s) => (s.variables = null), 'state.variables'],
      [(s) => (s.nodeOutputs = []), 'state.nodeOutputs'],
      [(s) => (s.status = 'DANCING'), 'state.status'],
      [(s) => (s.step = -1), 'state.step'],
      [(s) => (s.workflowId = 7), 'state.workflowId'],
      [(s) => (s.principal = 42), 'state.principal'],
      [(s) => (s.principal = ''), 'state.principal'],
      [(s) => (s.currentNodeId = 'nowhere'), 'state.currentNodeId'],
      [(s) => (s.pending = { kind: 'weird', nodeId: 'q' }), 'state.pending.kind'],
      [(s) => (s.pending = { kind: 'user-input', nodeId: 'gone' }), 'state.pending.nodeId'],
      [
        (s) => (s.pending = { kind: 'tool-approval', nodeId: 'q', round: 0, calls: 'x' }),
        'state.pending.calls',
      ],
      [
        (s) =>
          (s.pending = {
            kind: 'user-input',
            nodeId: 'q',
            tool: { round: 0, calls: [], callId: 'c', results: {} },
          }),
        'state.pending.tool.callId',
      ],
      [
        (s) =>
          (s.pending = {
            kind: 'user-input',
            nodeId: 'q',
            tool: { round: 0, calls: [{ id: 'c' }], callId: 'c', results: [] },
          }),
        'state.pending.tool.results',
      ],
      [(s) => (s.pending = { kind: 'user-input', nodeId: 'q', tool: 'x' }), 'state.pending.tool'],
      [(s) => (s.error = { code: 1 }), 'state.error.code'],
    ];
    for (const [change, field] of cases) {
      const bad = tampered(stored, change);
      expect(() => builder.fromCheckpoint(bad), field).toThrow(
        expect.objectContaining({ code: 'STATE_CORRUPT', field }),
      );
    }
    const noState = { ...stored, state: undefined } as unknown as StoredThread;
    expect(() => builder.fromCheckpoint(noState)).toThrow(
      expect.objectContaining({ code: 'STATE_CORRUPT', field: 'state' }),
    );
  });

  it('any field replaced by any JSON value: rebuilt and resumed, or refused with a typed error', async () => {
    const { engine, builder, stored } = await pausedThread();
    const fields = Object.keys(stored.state);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...fields), fc.jsonValue(), async (field, value) => {
        const bad = tampered(stored, (s) => (s[field] = value));
        let thread: ThreadContext;
        try {
          thread = builder.fromCheckpoint(bad);
        } catch (error) {
          expect(error).toMatchObject({ code: expect.stringMatching(/^[A-Z_]+$/) });
          return;
        }
        const run = thread.status === 'PAUSED' ? engine.resume(thread, 'x') : engine.run(thread);
        await run.then(
          ({ result }) => expect(result.status).toMatch(/^(COMPLETED|FAILED|PAUSED|CANCELLED)$/),
          (error) => expect(error).toMatchObject({ code: expect.stringMatching(/^[A-Z_]+$/) }),
        );
        expect(thread.status).not.toBe('RUNNING');
      }),
      { numRuns: 300 },
    );
  });
});
