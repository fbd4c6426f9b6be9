import { type LLMMessage, SkeinError } from '@skein/spec';
import { expect, it } from 'vitest';
import type { Checkpoint, CheckpointStore } from '../checkpoint/checkpoint-store.js';
import type { SkeinEngine } from '../engine/skein-engine.js';
import type { ConformanceSubject } from './checkpoint-store-conformance.js';
import { checkForksAgainstModel } from './fork-model.js';

type WithStore = (test: (subject: ConformanceSubject) => Promise<void>) => Promise<void>;

const plain = (messages: readonly LLMMessage[]) => JSON.parse(JSON.stringify(messages));

/** Every message of a stored thread's latest (or named) checkpoint. */
async function messagesOf(store: CheckpointStore, threadId: string, checkpointId?: string) {
  return (await store.load(threadId, checkpointId))!.conversation.messages;
}

/**
 * Conformance cases for forks (`Checkpoint.forkOf`): a fork's first checkpoint continues another
 * thread's stored conversation, which the store shares rather than copies, and nothing of a fork
 * is lost when the thread it came from is pruned or deleted. `engineOn` is the conformance
 * workflow's engine: it pauses at `ask` after two model turns and a clear.
 */
export function forkConformance(
  withStore: WithStore,
  engineOn: (store: CheckpointStore) => SkeinEngine,
): void {
  it('forks from any checkpoint: the conversation up to there, nothing after, and runs on', () =>
    withStore(async ({ store, reopen }) => {
      const engine = engineOn(store);
      await engine.run('conformance', { threadId: 'root', input: 'hello' });
      const infos = await store.list('root');
      const middle = infos.find(
        (i) => i.messageCount > 0 && i.messageCount < infos.at(-1)!.messageCount,
      )!;
      expect(middle).toBeDefined();

      const changed = { role: 'user' as const, content: 'changed' };
      const { result } = await engine.fork('root', {
        at: middle.id,
        threadId: 'early',
        messages: [changed],
      });
      expect(result.status).toBe('PAUSED');
      await engine.fork('root', { threadId: 'late', variables: { visits: 7 } });
      const reopened = reopen ? await reopen() : store;
      // Up to the fork, the root's; then the fork's own message, not what the root did next.
      const early = await messagesOf(reopened, 'early');
      expect(early.slice(0, middle.messageCount)).toEqual(
        await messagesOf(reopened, 'root', middle.id),
      );
      expect(early[middle.messageCount]).toEqual(changed);
      const late = (await reopened.load('late'))!;
      expect(late.conversation.messages).toEqual(await messagesOf(reopened, 'root'));
      expect(late.state).toMatchObject({
        threadId: 'late',
        variables: { visits: 7 },
        forkedFrom: { threadId: 'root', checkpointId: infos.at(-1)!.id },
      });
      // A fork's checkpoints count the conversation it shares.
      const [first] = await reopened.list('late');
      expect(first).toMatchObject({ sequence: 1, messageCount: infos.at(-1)!.messageCount });
      if (reopened !== store) await reopened.close?.();

      // The fork runs on from its own store: it appends after the shared part.
      const resumed = await engine.resume('late', 'no thanks');
      expect(resumed.result.status).toBe('COMPLETED');
      const after = await messagesOf(store, 'late');
      expect(after.slice(0, late.conversation.messages.length)).toEqual(late.conversation.messages);
      expect(after.at(-1)).toMatchObject({ role: 'user', content: 'no thanks' });
      // The thread it came from is as it was.
      expect(await messagesOf(store, 'root')).toEqual(late.conversation.messages);
    }));

  it('loses nothing of a fork (or a fork of a fork) when the threads it came from are pruned and deleted', () =>
    withStore(async ({ store, reopen }) => {
      const engine = engineOn(store);
      await engine.run('conformance', { threadId: 'grandparent', input: 'hello' });
      const grandparentInfos = await store.list('grandparent');
      const early = grandparentInfos.find((i) => i.messageCount > 0)!;
      // The parent forks early, then adds messages of its own; the child forks the parent late.
      const forked = await engine.fork('grandparent', { at: early.id, threadId: 'parent' });
      expect(forked.result.status).toBe('PAUSED');
      const parent = (await engine.fork('parent', { threadId: 'child' })).thread;
      const child = plain(parent.conversation.getAllMessages());
      const grandparent = await messagesOf(store, 'grandparent');
      expect(await messagesOf(store, 'child')).toEqual(child);
      expect(child.length).toBeGreaterThan(early.messageCount);

      await store.prune('parent', { keepLast: 1 });
      expect(await store.delete('parent')).toBe(true);
      expect(await messagesOf(store, 'child')).toEqual(child);
      expect(await store.delete('grandparent')).toBe(true);
      const reopened = reopen ? await reopen() : store;
      expect(await messagesOf(reopened, 'child')).toEqual(child);
      expect(await reopened.load('grandparent')).toBeUndefined();
      if (reopened !== store) await reopened.close?.();
      // And the child still runs on.
      const { result } = await engine.resume('child', 'no thanks');
      expect(result.status).toBe('COMPLETED');
      expect((await messagesOf(store, 'child')).slice(0, child.length)).toEqual(child);
      expect(grandparent.length).toBeGreaterThan(0);
    }));

  it('refuses a fork checkpoint that names no stored checkpoint, does not continue it, or reuses an id', () =>
    withStore(async ({ store }) => {
      const engine = engineOn(store);
      await engine.run('conformance', { threadId: 'origin', input: 'hello' });
      await engine.run('conformance', { threadId: 'taken', input: 'hello' });
      const origin = (await store.load('origin'))!;
      const first = (threadId: string, forkOf: Checkpoint['forkOf'], from: number): Checkpoint => ({
        id: `${threadId}:1`,
        threadId,
        sequence: 1,
        createdAt: new Date(0).toISOString(),
        state: { ...origin.state, threadId },
        conversation: {
          version: 1,
          from: { messages: from, log: origin.conversation.log.length },
          messages: [{ role: 'user', content: 'added' }],
          log: [],
        },
        ...(forkOf ? { forkOf } : {}),
      });
      const at = { threadId: 'origin', checkpointId: origin.checkpoint.id };
      const count = origin.checkpoint.messageCount;
      const takenBefore = await store.list('taken');

      await expect(
        store.save(first('f1', { threadId: 'nobody', checkpointId: 'nowhere' }, count)),
      ).rejects.toMatchObject({ code: 'CHECKPOINT_NOT_FOUND' });
      await expect(
        store.save(first('f2', { threadId: 'origin', checkpointId: 'nowhere' }, count)),
      ).rejects.toMatchObject({ code: 'CHECKPOINT_NOT_FOUND' });
      await expect(store.save(first('f3', at, count - 1))).rejects.toMatchObject({
        code: 'CHECKPOINT_CONFLICT',
      });
      await expect(store.save(first('taken', at, count))).rejects.toMatchObject({
        code: 'CHECKPOINT_CONFLICT',
      });
      for (const id of ['f1', 'f2', 'f3']) expect(await store.load(id)).toBeUndefined();
      expect(await store.list('taken')).toEqual(takenBefore);

      await store.save(first('f4', at, count));
      const saved = (await store.load('f4'))!;
      expect(saved.conversation.messages).toEqual([
        ...origin.conversation.messages,
        { role: 'user', content: 'added' },
      ]);
      expect(saved.checkpoint.messageCount).toBe(count + 1);
    }));

  it('lets one of two forks racing for one id have it; the other gets CHECKPOINT_CONFLICT, having run nothing', () =>
    withStore(async ({ store }) => {
      const engine = engineOn(store);
      await engine.run('conformance', { threadId: 'left', input: 'hello' });
      await engine.run('conformance', { threadId: 'right', input: 'hi' });
      const middle = (await store.list('left')).find((i) => i.status === 'RUNNING')!;
      expect(middle).toBeDefined();
      const started: string[] = [];
      engine.events.on('node:started', (e) => started.push(e.threadId));
      // Paused forks (stored as they are) and forks that run on from a RUNNING checkpoint.
      for (const [id, forks] of [
        [
          'paused-fork',
          [
            () => engine.fork('left', { threadId: 'paused-fork' }),
            () => engine.fork('right', { threadId: 'paused-fork' }),
          ],
        ],
        [
          'running-fork',
          [
            () => engine.fork('left', { at: middle.id, threadId: 'running-fork' }),
            () => engine.fork('left', { at: middle.id, threadId: 'running-fork' }),
          ],
        ],
      ] as const) {
        started.length = 0;
        const outcomes = await Promise.allSettled(forks.map((fork) => fork()));
        const lost = outcomes.filter((o) => o.status === 'rejected');
        expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
        expect(lost).toHaveLength(1);
        const reason = (lost[0] as PromiseRejectedResult).reason;
        expect(SkeinError.isInstance(reason)).toBe(true);
        expect(reason).toMatchObject({ code: 'CHECKPOINT_CONFLICT' });
        // Only the winner ran a node: the loser was refused at its first checkpoint.
        const runs = started.filter((t) => t === id).length;
        expect(runs).toBe(id === 'paused-fork' ? 0 : started.length);
        expect((await store.list(id))[0]).toMatchObject({ sequence: 1 });
      }
    }));

  it('gives back what the in-memory store does after any saves, forks, prunes and deletes', () =>
    withStore(({ store }) => checkForksAgainstModel(store, 100)));
}
