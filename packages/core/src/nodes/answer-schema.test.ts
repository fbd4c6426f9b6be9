import { describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import { WorkflowValidationError } from '../errors/workflow-validation-error.js';
import type { ThreadEvent } from '../events/thread-event.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';

// A USER_INTERACTION's declared `input` schema: the pause carries it, and every answer is checked
// against it before the pause is claimed.

const CONTACT = {
  type: 'object',
  properties: {
    username: { type: 'string', minLength: 1 },
    email: { type: 'string', description: "The user's email address" },
    age: { type: 'integer', default: 30 },
  },
  required: ['username', 'email'],
  additionalProperties: false,
} as const;

const contact = new WorkflowBuilder('contact', '1')
  .start()
  .userInteraction('ask', { prompt: 'Who are you?', variable: 'who', input: CONTACT })
  .end('end', { output: 'vars.who' })
  .chain('start', 'ask', 'end')
  .build();

/** PARALLEL: branch `a` asks for a contact, branch `b` for anything. */
const both = new WorkflowBuilder('both', '1')
  .start()
  .parallel('fan', {
    join: 'join',
    branches: [
      { name: 'a', start: 'ask_a' },
      { name: 'b', start: 'ask_b' },
    ],
  })
  .userInteraction('ask_a', { variable: 'who', input: CONTACT })
  .userInteraction('ask_b', { variable: 'who' })
  .join('join', { outputVariable: 'results' })
  .end('end', { output: 'vars.results' })
  .edge('start', 'fan')
  .edge('ask_a', 'join')
  .edge('ask_b', 'join')
  .edge('join', 'end')
  .build();

function engine(store = new InMemoryCheckpointStore()) {
  const e = new SkeinEngine({ store });
  e.registerWorkflow(contact);
  e.registerWorkflow(both);
  return { engine: e, store };
}

describe("a USER_INTERACTION node's input schema", () => {
  it('travels with the pause, in the stored state and the paused event', async () => {
    const { engine: e, store } = engine();
    const events: ThreadEvent[] = [];
    const { result } = await e.run('contact', { threadId: 'c1', onEvent: (ev) => events.push(ev) });
    expect(result.status).toBe('PAUSED');
    expect(result.pending).toMatchObject({
      kind: 'user-input',
      prompt: 'Who are you?',
      input: CONTACT,
    });
    expect((await store.load('c1'))!.state.pending).toMatchObject({ input: CONTACT });
    expect(events.find((ev) => ev.type === 'thread:paused')).toMatchObject({
      reason: 'user-input',
      input: CONTACT,
    });
  });

  it('refuses an answer that does not match before the pause is claimed, naming the field', async () => {
    const { engine: e, store } = engine();
    await e.run('contact', { threadId: 'c2' });
    const before = await store.load('c2');
    for (const answer of [
      'just text',
      { username: 'ana' },
      { username: 'ana', email: 'a@x', extra: 1 },
      { username: '', email: 'a@x' },
      { username: 'ana', email: 'a@x', age: 'old' },
    ]) {
      const refused = await e.resume('c2', answer).catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: 'RESUME_INPUT_INVALID' });
      expect((refused as Error).message).toMatch(/input schema/);
    }
    // A chat message answers through the same check.
    await expect(e.send('c2', { role: 'user', content: 'just text' })).rejects.toMatchObject({
      code: 'RESUME_INPUT_INVALID',
    });
    // Nothing was claimed or written: the stored thread is as it was.
    expect(await store.load('c2')).toEqual(before);
    const { result } = await e.resume('c2', { username: 'ana', email: 'a@x' });
    expect(result.status).toBe('COMPLETED');
    // The answer is the caller's, as given (defaults are the schema's business, not filled in).
    expect(result.output).toEqual({ username: 'ana', email: 'a@x' });
  });

  it("checks a branch's answer against that branch's schema", async () => {
    const { engine: e } = engine();
    const { result } = await e.run('both', { threadId: 'b1' });
    expect(result.pending).toMatchObject({
      kind: 'branches',
      waiting: [
        { path: 'fan/a', reason: 'user-input', input: CONTACT },
        { path: 'fan/b', reason: 'user-input' },
      ],
    });
    await expect(e.resume('b1', { branch: 'fan/a', input: 'text' })).rejects.toMatchObject({
      code: 'RESUME_INPUT_INVALID',
    });
    // The other branch declares none: any JSON answers it.
    const b = await e.resume('b1', { branch: 'fan/b', input: 'text' });
    expect(b.result.status).toBe('PAUSED');
    const a = await e.resume('b1', { branch: 'fan/a', input: { username: 'ana', email: 'a@x' } });
    expect(a.result.status).toBe('COMPLETED');
  });

  it('must compile when the workflow is registered', () => {
    const bad = new WorkflowBuilder('bad', '1')
      .start()
      .userInteraction('ask', { input: { type: 'no-such-type' } as never })
      .end()
      .chain('start', 'ask', 'end')
      .build();
    let thrown: unknown;
    try {
      new SkeinEngine({}).registerWorkflow(bad);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(WorkflowValidationError);
    expect((thrown as WorkflowValidationError).issues).toContainEqual(
      expect.objectContaining({ code: 'INVALID_NODE_CONFIG', path: 'nodes[1].config.input' }),
    );
  });
});
