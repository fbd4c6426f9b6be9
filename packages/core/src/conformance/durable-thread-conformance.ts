import { expect, it } from 'vitest';
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { Tool } from '../tools/tool.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';
import type { ConformanceSubject } from './checkpoint-store-conformance.js';

type WithStore = (test: (subject: ConformanceSubject) => Promise<void>) => Promise<void>;

/** Counts the charges made and can hold each one until `release` (a process that hangs). */
class Card {
  charges = 0;
  #started: (() => void) | undefined;
  #gate: Promise<void> | undefined;
  #open: (() => void) | undefined;

  /** Charges from now on wait for `release`; resolves when the next one starts. */
  hold(): Promise<void> {
    this.#gate = new Promise((resolve) => {
      this.#open = resolve;
    });
    return new Promise((resolve) => {
      this.#started = resolve;
    });
  }

  release(): void {
    this.#open?.();
  }

  tool(): Tool<{ amount: number }> {
    return {
      name: 'charge',
      description: 'Charges the card',
      parameters: {
        type: 'object',
        properties: { amount: { type: 'number' } },
        required: ['amount'],
      },
      needsApproval: (args) => args.amount > 100,
      execute: async ({ amount }) => {
        this.charges++;
        this.#started?.();
        await this.#gate;
        return `charged ${amount}`;
      },
    };
  }
}

function payWorkflow() {
  return new WorkflowBuilder('pay', '1')
    .initialTools(['charge'])
    .start()
    .llm('agent', { prompt: 'Pay the invoice' })
    .end('end', { output: 'nodes.agent' })
    .chain('start', 'agent', 'end')
    .build();
}

const model = new ScriptedLLMClient((request) =>
  request.messages.at(-1)!.role === 'tool'
    ? { content: 'paid' }
    : { toolCalls: [{ name: 'charge', arguments: { amount: 500 } }] },
);

function payEngine(
  store: CheckpointStore,
  card: Card,
  lease: { owner: string; now: () => number } = { owner: 'only', now: () => 0 },
): SkeinEngine {
  const engine = new SkeinEngine({ llm: model, store, leaseMs: 1_000, ...lease });
  engine.registerTool(card.tool());
  engine.registerWorkflow(payWorkflow());
  return engine;
}

async function pausedPayment(engine: SkeinEngine, threadId: string) {
  const { result } = await engine.run('pay', { threadId });
  expect(result.status).toBe('PAUSED');
  const pending = result.pending!;
  if (pending.kind !== 'tool-approval') throw new Error(`not an approval: ${pending.kind}`);
  return { approvals: { [pending.awaiting[0]!]: true } };
}

/** The pay workflow with its LLM node inside a MAP branch: the approval pauses the branch. */
function branchPayWorkflow() {
  return new WorkflowBuilder('pay-each', '1')
    .initialTools(['charge'])
    .variables({ defaults: { invoices: ['one'] } })
    .start()
    .map('each', { items: 'vars.invoices', start: 'agent', join: 'join' })
    .llm('agent', { prompt: 'Pay the invoice' })
    .join('join')
    .end()
    .chain('start', 'each')
    .chain('agent', 'join', 'end')
    .build();
}

/** Answers that do not answer an approval pause; each must be refused before it is claimed. */
function wrongApprovals(callId: string): readonly unknown[] {
  return [
    { approvals: { 'call-forged': true } },
    { approvals: {} },
    'yes please',
    { approvals: { [callId]: 'yes' } },
    { approvals: { [callId]: { approved: 'true' } } },
    // A key JSON.parse makes an own property: it names no call.
    JSON.parse('{"approvals":{"__proto__":true}}'),
    { approvals: { [callId]: true, 'call-forged': true } },
    null,
  ];
}

/** The stored pause: the store's latest checkpoint, which must still be answerable. */
async function storedPause(store: CheckpointStore, threadId: string) {
  const stored = await store.load(threadId);
  return { status: stored!.state.status, answer: stored!.state.pending?.answer };
}

/** Conformance cases for what a store must give a thread to be exactly-once and recoverable. */
export function durableThreadConformance(withStore: WithStore): void {
  it('runs an approved tool once when two resumes of one pause race, in one process or two', () =>
    withStore(async ({ store, reopen }) => {
      const card = new Card();
      const engine = payEngine(store, card);
      const approve = await pausedPayment(engine, 'pay-1');
      const [t1, t2] = [await engine.loadThread('pay-1'), await engine.loadThread('pay-1')];
      const outcomes = await Promise.allSettled([
        engine.resume(t1, approve),
        engine.resume(t2, approve),
      ]);
      expect(card.charges).toBe(1);
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      const lost = outcomes.filter((o) => o.status === 'rejected');
      expect(won.map((o) => o.value.result.status)).toEqual(['COMPLETED']);
      expect(lost.map((o) => (o.reason as { code: string }).code)).toEqual(['RESUME_CONFLICT']);
      expect([t1.status, t2.status].sort()).toEqual(['COMPLETED', 'PAUSED']);

      // Two processes (two engines, two owners) over the same data.
      const other = reopen ? await reopen() : store;
      const second = payEngine(other, card, { owner: 'other', now: () => 0 });
      const again = await pausedPayment(engine, 'pay-2');
      const [a, b] = [await engine.loadThread('pay-2'), await second.loadThread('pay-2')];
      const racing = await Promise.allSettled([engine.resume(a, again), second.resume(b, again)]);
      expect(card.charges).toBe(2);
      expect(racing.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      expect(
        racing.filter(
          (o) =>
            o.status === 'rejected' && (o.reason as { code: string }).code === 'RESUME_CONFLICT',
        ),
      ).toHaveLength(1);
      expect((await store.load('pay-2'))!.state.status).toBe('COMPLETED');
      if (other !== store) await other.close?.();
    }));

  it('claims a pause before the run goes on: the second claim is refused while the first runs', () =>
    withStore(async ({ store }) => {
      const card = new Card();
      const engine = payEngine(store, card);
      const approve = await pausedPayment(engine, 'claim');
      const started = card.hold();
      const first = await engine.claimResume(await engine.loadThread('claim'), approve);
      await started;
      await expect(
        engine.claimResume(await engine.loadThread('claim'), approve),
      ).rejects.toMatchObject({ code: 'RESUME_CONFLICT', retryable: false });
      card.release();
      expect((await first.result).status).toBe('COMPLETED');
      expect(card.charges).toBe(1);
    }));

  it('recovers a thread a dead process left RUNNING once its lease expires, with its claimed answer', () =>
    withStore(async ({ store, reopen }) => {
      const card = new Card();
      // The first process claims the approval and hangs inside the tool: as good as dead.
      const dead = payEngine(store, card, { owner: 'dead', now: () => 0 });
      const approve = await pausedPayment(dead, 'crash');
      const started = card.hold();
      const hung = await dead.claimResume(await dead.loadThread('crash'), approve);
      await started;
      expect((await store.load('crash'))!.state.status).toBe('RUNNING');

      let clock = 500;
      const other = reopen ? await reopen() : store;
      const fresh = new Card();
      const next = payEngine(other, fresh, { owner: 'next', now: () => clock });
      // The lease (until 1,000) says its process is alive: nothing is taken.
      expect(await next.recover()).toEqual([]);
      clock = 1_001;
      const recovered = await next.recover();
      expect(recovered.map((r) => r.threadId)).toEqual(['crash']);
      const result = await recovered[0]!.result;
      expect(result).toMatchObject({ status: 'COMPLETED', output: 'paid' });
      // The claimed approval carried over: the new process charged without asking again.
      expect(fresh.charges).toBe(1);
      expect(await next.recover()).toEqual([]);

      // The hung process wakes: its work is refused, the store keeps the new owner's ending.
      card.release();
      await expect(hung.result).rejects.toMatchObject({
        code: expect.stringMatching(/^(CHECKPOINT_CONFLICT|THREAD_LEASED)$/),
      });
      expect((await other.load('crash'))!.state.status).toBe('COMPLETED');
      if (other !== store) await other.close?.();
    }));

  it('refuses a wrong answer to an approval before claiming it: the thread stays PAUSED and answerable', () =>
    withStore(async ({ store, reopen }) => {
      const card = new Card();
      let clock = 0;
      const engine = payEngine(store, card, { owner: 'one', now: () => clock });
      const approve = await pausedPayment(engine, 'wrong');
      const callId = Object.keys(approve.approvals)[0]!;
      const saved = (await store.list('wrong')).length;
      for (const input of wrongApprovals(callId)) {
        await expect(engine.resume('wrong', input)).rejects.toMatchObject({
          code: 'RESUME_INPUT_INVALID',
          threadId: 'wrong',
        });
        expect(await storedPause(store, 'wrong')).toEqual({ status: 'PAUSED', answer: undefined });
      }
      // Nothing was claimed, so nothing was saved, and no process must recover anything.
      expect(await store.list('wrong')).toHaveLength(saved);
      clock = 10_000;
      const other = reopen ? await reopen() : store;
      const next = payEngine(other, card, { owner: 'two', now: () => clock });
      expect(await next.recover()).toEqual([]);
      const { result } = await next.resume('wrong', approve);
      expect(result).toMatchObject({ status: 'COMPLETED', output: 'paid' });
      expect(card.charges).toBe(1);
      if (other !== store) await other.close?.();
    }));

  it('refuses a wrong answer to an approval inside a branch before claiming it, in the parent and the branch', () =>
    withStore(async ({ store }) => {
      const card = new Card();
      const engine = payEngine(store, card);
      engine.registerWorkflow(branchPayWorkflow());
      const { result } = await engine.run('pay-each', { threadId: 'inner' });
      const pending = result.pending;
      if (pending?.kind !== 'branches') throw new Error(`not a branch pause: ${pending?.kind}`);
      const [wait] = pending.waiting;
      expect(wait).toMatchObject({ path: 'each[0]', reason: 'tool-approval' });
      const callId = wait!.awaiting![0]!;
      const branch = wait!.threadId;
      for (const input of [
        ...wrongApprovals(callId).map((answer) => ({ branch: 'each[0]', input: answer })),
        { branch: 'each[7]', input: { approvals: { [callId]: true } } },
        { approvals: { [callId]: true } },
      ]) {
        await expect(engine.resume('inner', input)).rejects.toMatchObject({
          code: 'RESUME_INPUT_INVALID',
        });
        expect(await storedPause(store, 'inner')).toEqual({ status: 'PAUSED', answer: undefined });
        expect(await storedPause(store, branch)).toEqual({ status: 'PAUSED', answer: undefined });
      }
      const done = await engine.resume('inner', {
        branch: 'each[0]',
        input: { approvals: { [callId]: true } },
      });
      expect(done.result.status).toBe('COMPLETED');
      expect(card.charges).toBe(1);
    }));
}
