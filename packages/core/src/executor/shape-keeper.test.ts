import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { SkeinEngine } from '../engine/skein-engine.js';
import type { NodeHandler } from '../nodes/node-handler.js';
import type { ThreadContext } from '../thread/thread-context.js';
import type { NodeDefinition } from '../workflow/types.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';
import { doubleEach } from './executor-fixtures.js';
import { DEFAULT_HANDLERS } from './node-handlers.js';
import { keepShapesOf } from './shape-keeper.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function engine(): SkeinEngine {
  const e = new SkeinEngine();
  e.registerWorkflow(
    new WorkflowBuilder('tiny', '1').start().end('end').chain('start', 'end').build(),
  );
  return e;
}

/** Collects what is no longer referenced (a WeakRef target lives until the current job ends). */
async function collect(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  await new Promise((resolve) => setImmediate(resolve));
}

async function finishedRoots(e: SkeinEngine, n: number): Promise<WeakRef<ThreadContext>[]> {
  const refs: WeakRef<ThreadContext>[] = [];
  for (let i = 0; i < n; i++) refs.push(new WeakRef((await e.run('tiny')).thread));
  return refs;
}

function asChild(thread: ThreadContext): ThreadContext {
  thread.dispatch({
    type: 'patched',
    changes: {
      parent: {
        threadId: 'root',
        nodeId: 'fan',
        rootThreadId: 'root',
        branchPath: '0',
        depth: 1,
        forkedAt: 0,
      },
    },
  });
  return thread;
}

describe('keeping shapes alive', () => {
  it('keeps only the last finished root thread: earlier ones are collected', async () => {
    const refs = await finishedRoots(engine(), 3);
    await collect();
    expect(refs.map((r) => r.deref() !== undefined)).toEqual([false, false, true]);
  });

  it('keeps the last root and the last branch apart: one does not push out the other', async () => {
    const e = engine();
    const [root] = await finishedRoots(e, 1);
    const children = [0, 1].map(() => new WeakRef(asChild(e.createThread('tiny'))));
    for (const c of children) keepShapesOf(c.deref()!);
    await collect();
    expect(root!.deref()).toBeDefined();
    expect(children.map((r) => r.deref() !== undefined)).toEqual([false, true]);
  });

  it('keeps the last handler context, and only that one', async () => {
    const contexts: WeakRef<object>[] = [];
    const recorded =
      <N extends NodeDefinition>(handler: NodeHandler<N>): NodeHandler<N> =>
      (ctx) => {
        contexts.push(new WeakRef(ctx));
        return handler(ctx);
      };
    const e = new SkeinEngine({
      handlers: { START: recorded(DEFAULT_HANDLERS.START), END: recorded(DEFAULT_HANDLERS.END) },
    });
    e.registerWorkflow(
      new WorkflowBuilder('tiny', '1').start().end('end').chain('start', 'end').build(),
    );
    for (let i = 0; i < 3; i++) await e.run('tiny');
    await collect();
    expect(contexts.map((r) => r.deref() !== undefined)).toEqual([
      false,
      false,
      false,
      false,
      false,
      true,
    ]);
  });

  it('after a fan-out keeps one plan of it, not the branches of every fan-out', async () => {
    // Each branch's state holds its plan's variables as they are: a WeakRef to them says whether
    // its plan is still referenced once the branch thread is gone.
    const seen: WeakRef<object>[][] = [];
    const variable = DEFAULT_HANDLERS.VARIABLE;
    const e = new SkeinEngine({
      handlers: {
        VARIABLE: (ctx) => {
          seen.at(-1)!.push(new WeakRef(ctx.thread.state.variables));
          return variable(ctx);
        },
      },
    });
    e.registerWorkflow(doubleEach(1));
    for (let run = 0; run < 2; run++) {
      seen.push([]);
      await e.run('double', { variables: { items: [1, 2, 3, 4] } });
    }
    await collect();
    const alive = seen.map((refs) => refs.map((r) => r.deref() !== undefined));
    // The first fan-out: nothing. The last: its first plan (the copy) and its last branch (the
    // last finished branch thread, kept above).
    expect(alive).toEqual([
      [false, false, false, false],
      [true, false, false, true],
    ]);
  });
});
