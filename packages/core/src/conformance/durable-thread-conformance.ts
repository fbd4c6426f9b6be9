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
}
