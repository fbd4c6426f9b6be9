import { expect, it } from 'vitest';
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import type { SkeinEngine } from '../engine/skein-engine.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';
import type { ConformanceSubject } from './checkpoint-store-conformance.js';

type WithStore = (test: (subject: ConformanceSubject) => Promise<void>) => Promise<void>;

/** A thread whose one branch asks a question: its child thread is stored while it waits. */
const branchAsks = new WorkflowBuilder('principal-branches', '1')
  .start()
  .parallel('fan', { join: 'join', branches: [{ name: 'ask', start: 'ask' }] })
  .userInteraction('ask', { prompt: 'Which city?', variable: 'city' })
  .join('join', { outputVariable: 'results' })
  .end('end', { output: 'vars.results' })
  .edge('start', 'fan')
  .edge('ask', 'join')
  .edge('join', 'end')
  .build();

/** The CHECKPOINT_NOT_FOUND code of a call that must not find the thread. */
async function notFound(call: Promise<unknown>): Promise<string> {
  return call.then(
    () => 'found',
    (error: { code?: string }) => error.code ?? String(error),
  );
}

/**
 * Conformance cases for whose thread it is (`ThreadState.principal`): the principal a thread was
 * built for is kept in its state in every checkpoint, after a reopen, through resumes, forks and
 * child threads; and a principal's view finds only its own threads, from any process, leaving
 * the others untouched. The store keeps it inside the state it holds as JSON, with nothing to
 * index. `engineOn` is the conformance workflow's engine: it pauses at `ask`.
 */
export function principalConformance(
  withStore: WithStore,
  engineOn: (store: CheckpointStore) => SkeinEngine,
): void {
  it('keeps the principal a thread was built for in every checkpoint, its forks and child threads', () =>
    withStore(async ({ store, reopen }) => {
      const engine = engineOn(store);
      engine.registerWorkflow(branchAsks);
      const ada = engine.forPrincipal('user:ada@example.com');
      expect((await ada.run('conformance', { threadId: 'owned', input: 'hi' })).result.status).toBe(
        'PAUSED',
      );
      await ada.fork('owned', { threadId: 'owned-fork' });
      expect((await ada.run('principal-branches', { threadId: 'fan' })).result.status).toBe(
        'PAUSED',
      );
      const reopened = reopen ? await reopen() : store;
      for (const { state } of await reopened.listStates('owned'))
        expect(state).toMatchObject({ principal: 'user:ada@example.com' });
      const fork = await reopened.load('owned-fork');
      expect(fork!.state).toMatchObject({ principal: 'user:ada@example.com', forkedFrom: {} });
      const children = (await reopened.listThreads()).filter((t) => t.threadId.startsWith('fan/'));
      expect(children).toHaveLength(1);
      expect((await reopened.load(children[0]!.threadId))!.state).toMatchObject({
        principal: 'user:ada@example.com',
        parent: { threadId: 'fan' },
      });

      // Another process goes on with both: the principal stays what it was.
      const elsewhere = engineOn(reopened);
      elsewhere.registerWorkflow(branchAsks);
      const again = elsewhere.forPrincipal('user:ada@example.com');
      expect((await again.resume('owned', 'no thanks')).result.status).toBe('COMPLETED');
      const answered = await again.resume('fan', { branch: 'fan/ask', input: 'Oslo' });
      expect(answered.result.status).toBe('COMPLETED');
      expect(JSON.stringify(answered.result.output)).toContain('Oslo');
      expect((await reopened.load('owned'))!.state).toMatchObject({
        status: 'COMPLETED',
        principal: 'user:ada@example.com',
      });
      expect((await reopened.load('fan'))!.state.principal).toBe('user:ada@example.com');
      if (reopened !== store) await reopened.close?.();
    }));

  it("finds a principal only its own threads, from any process, and leaves the others' untouched", () =>
    withStore(async ({ store, reopen }) => {
      const engine = engineOn(store);
      await engine.forPrincipal('ada').run('conformance', { threadId: 'adas', input: 'hi' });
      await engine.run('conformance', { threadId: 'nobodys', input: 'hi' });
      const reopened = reopen ? await reopen() : store;
      const before = {
        adas: await reopened.list('adas'),
        nobodys: await reopened.list('nobodys'),
      };
      const bob = engineOn(reopened).forPrincipal('bob');
      for (const threadId of ['adas', 'nobodys', 'unknown']) {
        expect(await bob.getThread(threadId)).toBeUndefined();
        expect(await notFound(bob.loadThread(threadId))).toBe('CHECKPOINT_NOT_FOUND');
        expect(await notFound(bob.resume(threadId, 'no thanks'))).toBe('CHECKPOINT_NOT_FOUND');
        expect(await notFound(bob.claimResume(threadId, 'no thanks'))).toBe('CHECKPOINT_NOT_FOUND');
        expect(await notFound(bob.fork(threadId, { threadId: `${threadId}-bob` }))).toBe(
          'CHECKPOINT_NOT_FOUND',
        );
        expect(await notFound(bob.history(threadId))).toBe('CHECKPOINT_NOT_FOUND');
        expect(await notFound(bob.subscribe(threadId, () => {}))).toBe('CHECKPOINT_NOT_FOUND');
      }
      // Its own thread of that id cannot be made either: the id is taken.
      expect(await notFound(bob.send('adas', 'mine now'))).toBe('CHECKPOINT_NOT_FOUND');
      expect(await reopened.list('adas')).toEqual(before.adas);
      expect(await reopened.list('nobodys')).toEqual(before.nobodys);
      expect(await reopened.load('adas-bob')).toBeUndefined();

      // The owner reaches its thread; the engine itself (the app's own code) reaches them all.
      const ada = engineOn(reopened).forPrincipal('ada');
      expect((await ada.history('adas')).length).toBe(before.adas.length);
      expect(await ada.getThread('nobodys')).toBeUndefined();
      expect((await engineOn(reopened).resume('adas', 'no thanks')).result.status).toBe(
        'COMPLETED',
      );
      if (reopened !== store) await reopened.close?.();
    }));
}
