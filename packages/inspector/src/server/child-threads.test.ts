import { SkeinEngine, WorkflowBuilder } from '@skein/core';
import { ScriptedLLMClient } from '@skein/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ThreadDetail, ThreadSummary } from '../model/types.js';
import { tempStore } from '../test-support/temp-store.js';
import type { RunningInspector } from './inspector-options.js';
import { startInspector } from './start-inspector.js';

const temp = tempStore();
let inspector: RunningInspector;

beforeAll(async () => {
  const engine = new SkeinEngine({
    llm: new ScriptedLLMClient(() => ({ content: 'inner answer' })),
    store: temp.store,
  });
  engine.registerWorkflow(
    new WorkflowBuilder('inner', '1')
      .start()
      .llm('think', { prompt: 'Think.' })
      .end('end')
      .chain('start', 'think', 'end')
      .build(),
  );
  engine.registerWorkflow(
    new WorkflowBuilder('outer', '1')
      .start()
      .node({
        id: 'call',
        type: 'SUBWORKFLOW',
        config: { workflow: 'inner', outputVariable: 'got' },
      })
      .end('end')
      .chain('start', 'call', 'end')
      .build(),
  );
  const { result } = await engine.run('outer', { threadId: 'outer-1' });
  expect(result.status).toBe('COMPLETED');
  inspector = await startInspector({ store: temp.store, engine });
});

afterAll(async () => {
  await inspector.close();
  temp.dispose();
});

describe('child threads', () => {
  it('are listed with their parent, and under it on the parent thread', async () => {
    const list = (await (await fetch(new URL('/api/threads', inspector.url))).json()) as {
      threads: ThreadSummary[];
    };
    const child = list.threads.find((t) => t.workflowId === 'inner');
    expect(child).toMatchObject({ parentThreadId: 'outer-1', status: 'COMPLETED' });
    const detail = (await (
      await fetch(new URL('/api/threads/outer-1', inspector.url))
    ).json()) as ThreadDetail;
    expect(detail.children.map((c) => c.threadId)).toEqual([child!.threadId]);
  });
});
