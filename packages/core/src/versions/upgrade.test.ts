import { describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import type { WorkflowDefinition } from '../workflow/types.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';

const v1: WorkflowDefinition = new WorkflowBuilder('review', '1')
  .start()
  .userInteraction('ask', { prompt: 'Approve?', variable: 'answer' })
  .end('end', { output: 'vars.answer' })
  .chain('start', 'ask', 'end')
  .build();

const v2: WorkflowDefinition = {
  ...new WorkflowBuilder('review', '2')
    .start()
    .userInteraction('approve', { prompt: 'Approve (v2)?', variable: 'answer' })
    .variable('stamp', { assign: { result: '"v2:" + vars.answer + ":" + vars.owner' } })
    .end('end', { output: 'vars.result' })
    .chain('start', 'approve', 'stamp', 'end')
    .build(),
  variables: {
    schema: {
      type: 'object',
      properties: { owner: { type: 'string' } },
      required: ['owner'],
    },
  },
};

const migrateTo2 = {
  from: '1',
  nodes: { ask: 'approve' },
  variables: (vars: Readonly<Record<string, unknown>>) => ({ ...vars, owner: 'ops' }),
};

describe('workflow versions', () => {
  it('keeps a thread on the version it started on after a newer one is registered', async () => {
    const engine = new SkeinEngine({ store: new InMemoryCheckpointStore() });
    engine.registerWorkflow(v1);
    const { thread } = await engine.run('review', { threadId: 'old' });
    engine.registerWorkflow(v2, { migrate: migrateTo2 });
    const loaded = await engine.loadThread('old');
    expect(loaded.state.workflowVersion).toBe('1');
    expect((await engine.resume(loaded, 'yes')).result.output).toBe('yes');
    expect(thread.state.workflowVersion).toBe('1');
    const { thread: fresh } = await engine.run('review', { variables: { owner: 'me' } });
    expect(fresh.state.workflowVersion).toBe('2');
  });

  it('upgrades 1,000 paused threads along the migration, then they run the new version', async () => {
    const store = new InMemoryCheckpointStore();
    const engine = new SkeinEngine({ store });
    engine.registerWorkflow(v1);
    for (let i = 0; i < 1_000; i++) await engine.run('review', { threadId: `t${i}` });
    engine.registerWorkflow(v2, { migrate: migrateTo2 });
    const result = await engine.upgrade('all', '2');
    expect(result.upgraded).toHaveLength(1_000);
    expect(result.conflicts).toEqual([]);
    const t7 = await engine.loadThread('t7');
    expect(t7.state).toMatchObject({
      workflowVersion: '2',
      status: 'PAUSED',
      currentNodeId: 'approve',
      pending: { kind: 'user-input', nodeId: 'approve' },
      variables: { owner: 'ops' },
    });
    expect((await engine.resume(t7, 'ok')).result.output).toBe('v2:ok:ops');
    expect((await engine.history('t3')).at(-1)!.status).toBe('PAUSED');
    // Nothing left to move.
    expect((await engine.upgrade('all', '2')).upgraded).toEqual([]);
  });

  it('refuses with every problem listed, changing nothing', async () => {
    const store = new InMemoryCheckpointStore();
    const engine = new SkeinEngine({ store });
    engine.registerWorkflow(v1);
    await engine.run('review', { threadId: 'a' });
    await engine.run('review', { threadId: 'b' });
    // No node map (ask is gone) and variables the schema refuses.
    engine.registerWorkflow(v2, { migrate: { from: '1' } });
    const refused = await engine.upgrade('all', '2').catch((e: unknown) => e);
    expect(refused).toMatchObject({
      code: 'UPGRADE_REFUSED',
      workflowId: 'review',
      toVersion: '2',
    });
    const problems = (refused as { upgradeProblems: { threadId: string; code: string }[] })
      .upgradeProblems;
    expect(problems.map((p) => `${p.threadId}:${p.code}`).sort()).toEqual([
      'a:NODE_MISSING',
      'a:VARIABLES_INVALID',
      'b:NODE_MISSING',
      'b:VARIABLES_INVALID',
    ]);
    expect((await store.load('a'))!.state.workflowVersion).toBe('1');
    await expect(engine.upgrade('a', '3')).rejects.toMatchObject({ code: 'WORKFLOW_NOT_FOUND' });
  });

  it('names the upgrade path when a thread version is no longer registered', async () => {
    const store = new InMemoryCheckpointStore();
    const before = new SkeinEngine({ store });
    before.registerWorkflow(v1);
    await before.run('review', { threadId: 'stranded' });
    // A new process that registers only version 2.
    const after = new SkeinEngine({ store });
    after.registerWorkflow(v2, { migrate: migrateTo2 });
    const error = await after.loadThread('stranded').catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'WORKFLOW_NOT_FOUND',
      message: expect.stringContaining('engine.upgrade("stranded", "2")'),
      details: { upgradeTo: '2', version: '1' },
    });
    await after.upgrade('stranded', '2');
    expect((await after.resume(await after.loadThread('stranded'), 'y')).result.output).toBe(
      'v2:y:ops',
    );
  });

  it('follows chains of migrations and refuses bad ones at registration', () => {
    const engine = new SkeinEngine();
    engine.registerWorkflow(v1);
    expect(() =>
      engine.registerWorkflow({ ...v1, version: '2' }, { migrate: { from: '' } }),
    ).toThrow(/from must be/);
    expect(engine.workflows.has('review', '2')).toBe(false);
    expect(() =>
      engine.registerWorkflow({ ...v1, version: '2' }, { migrate: { from: '2' } }),
    ).toThrow(/cannot migrate to itself/);
  });
});
