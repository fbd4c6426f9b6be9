import type { LLMRequest } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { Tool, ToolExecutionContext } from '../tools/tool.js';
import { pauseForInput } from '../tools/tool-input.js';
import { chatWorkflow } from '../workflow/chat-workflow.js';

const CONFIRM = {
  type: 'object',
  properties: { confirm: { type: 'boolean' } },
  required: ['confirm'],
  additionalProperties: false,
} as const;

/** `book` asks whether to go on (once per call) and books with the answer; `weather` just answers. */
function tools() {
  const ran = { book: 0, weather: 0 };
  const heard: (ToolExecutionContext['answered'] | undefined)[] = [];
  const book: Tool<{ city: string }> = {
    name: 'book',
    description: 'Books a hotel',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: ({ city }, context) => {
      ran.book++;
      heard.push(context.answered);
      if (!context.answered)
        return pauseForInput({ prompt: `Book ${city}?`, input: CONFIRM, state: { quote: 120 } });
      const { answer, state } = context.answered as {
        answer: { confirm: boolean };
        state: { quote: number };
      };
      return answer.confirm ? `booked ${city} at ${state.quote}` : 'not booked';
    },
  };
  const weather: Tool<{ city: string }> = {
    name: 'weather',
    description: 'Weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: ({ city }) => {
      ran.weather++;
      return `sunny in ${city}`;
    },
  };
  return { list: [book, weather], ran, heard };
}

/** One round with both calls, then an answer quoting the tool results the model was sent. */
const script = [
  {
    toolCalls: [
      { name: 'weather', arguments: { city: 'Oslo' } },
      { name: 'book', arguments: { city: 'Oslo' } },
    ],
  },
  (request: LLMRequest) => ({
    content: request.messages
      .filter((m) => m.role === 'tool')
      .map((m) => m.content)
      .join(' | '),
  }),
];

function setup(store = new InMemoryCheckpointStore(), steps = script) {
  const llm = new ScriptedLLMClient(steps, { whenExhausted: 'repeat-last' });
  const made = tools();
  const engine = new SkeinEngine({ llm, store });
  engine.registerTools(made.list);
  engine.registerWorkflow(chatWorkflow({ systemPrompt: 'Help.', tools: ['book', 'weather'] }));
  return { engine, store, llm, ...made };
}

describe('a tool that asks a person (pauseForInput)', () => {
  it('pauses the thread with its prompt and schema; the answer reaches the call, and the round goes on whole', async () => {
    const { engine, ran, heard, llm } = setup();
    const { thread } = await engine.send('t1', 'Book Oslo');
    expect(thread.status).toBe('PAUSED');
    const pending = thread.state.pending;
    expect(pending).toMatchObject({ kind: 'user-input', prompt: 'Book Oslo?', input: CONFIRM });
    // Nothing of the round is in the conversation yet: the model never sees half a round.
    expect(thread.conversation.getAllMessages().filter((m) => m.role === 'tool')).toHaveLength(0);

    const { thread: after, result } = await engine.resume('t1', { confirm: true });
    expect(result.status).toBe('COMPLETED');
    expect(ran).toEqual({ book: 2, weather: 1 });
    expect(heard).toEqual([undefined, { answer: { confirm: true }, state: { quote: 120 } }]);
    const messages = after.conversation.getAllMessages();
    // The results in call order, right after the call; no user message for the answer.
    expect(messages.map((m) => m.role)).toEqual([
      'user',
      'system',
      'assistant',
      'tool',
      'tool',
      'assistant',
    ]);
    expect(messages.at(-1)?.content).toBe('sunny in Oslo | booked Oslo at 120');
    expect(llm.requests).toHaveLength(2);
  });

  it('refuses an answer that does not match the schema, typed, and the call does not run again', async () => {
    const { engine, ran } = setup();
    await engine.send('t2', 'Book Oslo');
    await expect(engine.resume('t2', { confirm: 'yes' })).rejects.toMatchObject({
      code: 'RESUME_INPUT_INVALID',
    });
    expect(ran.book).toBe(1);
    const thread = await engine.loadThread('t2');
    expect(thread.status).toBe('PAUSED');
    const { result } = await engine.resume('t2', { confirm: false });
    expect(result.status).toBe('COMPLETED');
    expect(ran).toEqual({ book: 2, weather: 1 });
  });

  it('is answered by another engine on the same store (the pause and the finished results are stored)', async () => {
    const store = new InMemoryCheckpointStore();
    const first = setup(store);
    await first.engine.send('t3', 'Book Oslo');
    // Another process: its model is asked only for the answer after the round.
    const second = setup(store, script.slice(1));
    const { thread } = await second.engine.resume('t3', { confirm: true });
    expect(thread.status).toBe('COMPLETED');
    expect(second.ran).toEqual({ book: 1, weather: 0 });
    expect(thread.conversation.getAllMessages().at(-1)?.content).toBe(
      'sunny in Oslo | booked Oslo at 120',
    );
  });

  it('a chat message sent while it waits is the answer', async () => {
    const asking: Tool = {
      name: 'ask',
      description: 'asks',
      parameters: { type: 'object', properties: {} },
      execute: (_args, context) =>
        context.answered
          ? `told: ${String(context.answered.answer)}`
          : pauseForInput({ prompt: 'Which date?' }),
    };
    const scripted = new ScriptedLLMClient(
      [
        { toolCalls: [{ name: 'ask', arguments: {} }] },
        (r: LLMRequest) => ({ content: String(r.messages.at(-1)?.content) }),
      ],
      { whenExhausted: 'repeat-last' },
    );
    const chat = new SkeinEngine({ llm: scripted, store: new InMemoryCheckpointStore() });
    chat.registerTools([asking]);
    chat.registerWorkflow(chatWorkflow({ systemPrompt: 'Help.', tools: ['ask'] }));
    const paused = await chat.send('c1', 'plan a trip');
    expect(paused.thread.state.pending).toMatchObject({
      kind: 'user-input',
      prompt: 'Which date?',
    });
    const answered = await chat.send('c1', 'the 3rd');
    expect(answered.thread.status).toBe('COMPLETED');
    expect(answered.thread.conversation.getAllMessages().at(-1)?.content).toBe('told: the 3rd');
  });

  it("a request that is not one (empty prompt, state that is not JSON) is the call's error, which the model reads", async () => {
    const scripted = new ScriptedLLMClient(
      [
        { toolCalls: [{ name: 'bad', arguments: {} }] },
        (r: LLMRequest) => ({ content: String(r.messages.at(-1)?.content) }),
      ],
      { whenExhausted: 'repeat-last' },
    );
    const engine = new SkeinEngine({ llm: scripted, store: new InMemoryCheckpointStore() });
    engine.registerTools([
      {
        name: 'bad',
        description: 'asks wrongly',
        parameters: { type: 'object', properties: {} },
        execute: () => pauseForInput({ prompt: 'ok?', state: { when: new Date(0) } }),
      },
    ]);
    engine.registerWorkflow(chatWorkflow({ systemPrompt: 'Help.', tools: ['bad'] }));
    const { thread } = await engine.send('b1', 'go');
    expect(thread.status).toBe('COMPLETED');
    expect(String(thread.conversation.getAllMessages().at(-1)?.content)).toMatch(
      /TOOL_FAILED.*asked for input wrongly: state\.when is/,
    );
  });

  it('after an approval pause in the same round, the refused call keeps its refusal while the round waits for the answer', async () => {
    const store = new InMemoryCheckpointStore();
    const llm = new ScriptedLLMClient(
      [
        {
          toolCalls: [
            { name: 'pay', arguments: {} },
            { name: 'book', arguments: { city: 'Rome' } },
          ],
        },
        script[1]!,
      ],
      { whenExhausted: 'repeat-last' },
    );
    const made = tools();
    const engine = new SkeinEngine({ llm, store });
    let paid = 0;
    engine.registerTools([
      ...made.list,
      {
        name: 'pay',
        description: 'Pays',
        parameters: { type: 'object', properties: {} },
        needsApproval: true,
        execute: () => {
          paid++;
          return 'paid';
        },
      },
    ]);
    engine.registerWorkflow(chatWorkflow({ systemPrompt: 'Help.', tools: ['book', 'pay'] }));
    const { thread } = await engine.send('a1', 'Pay and book');
    const approval = thread.state.pending;
    if (approval?.kind !== 'tool-approval') throw new Error('expected an approval pause');
    const [payId] = approval.awaiting;
    const asked = await engine.resume('a1', { approvals: { [payId!]: { approved: false } } });
    expect(asked.thread.state.pending).toMatchObject({ kind: 'user-input', prompt: 'Book Rome?' });
    const { thread: done } = await engine.resume('a1', { confirm: true });
    expect(done.status).toBe('COMPLETED');
    expect(paid).toBe(0);
    expect(String(done.conversation.getAllMessages().at(-1)?.content)).toMatch(
      /TOOL_REJECTED.*\| booked Rome at 120$/,
    );
  });

  it('in a branch: the parent waits on the branch with the tool’s question, and `{ branch, input }` answers the call', async () => {
    const { engine, ran } = setup();
    engine.registerWorkflow({
      id: 'fanned',
      version: '1',
      nodes: [
        { id: 'start', type: 'START' },
        {
          id: 'fan',
          type: 'PARALLEL',
          config: {
            branches: [
              { name: 'agent', start: 'agent' },
              { name: 'auto', start: 'calc' },
            ],
            join: 'join',
          },
        },
        { id: 'agent', type: 'LLM', config: { tools: ['book', 'weather'], outputVariable: 'out' } },
        { id: 'calc', type: 'VARIABLE', config: { assign: { out: '"computed"' } } },
        { id: 'join', type: 'JOIN', config: { output: 'vars.out', outputVariable: 'outs' } },
        { id: 'end', type: 'END', config: { output: 'vars.outs' } },
      ],
      edges: [
        { from: 'start', to: 'fan' },
        { from: 'agent', to: 'join' },
        { from: 'calc', to: 'join' },
        { from: 'join', to: 'end' },
      ],
    });
    const { thread, result } = await engine.run('fanned', { threadId: 'F', input: 'Book Oslo' });
    expect(result.status).toBe('PAUSED');
    expect(result.pending).toMatchObject({
      kind: 'branches',
      waiting: [{ path: 'fan/agent', reason: 'user-input', prompt: 'Book Oslo?' }],
    });
    await expect(
      engine.resume(thread, { branch: 'fan/agent', input: { confirm: 'no' } }),
    ).rejects.toMatchObject({ code: 'RESUME_INPUT_INVALID' });
    const { result: done } = await engine.resume(thread, {
      branch: 'fan/agent',
      input: { confirm: true },
    });
    expect(done.status).toBe('COMPLETED');
    expect(done.output).toEqual(['sunny in Oslo | booked Oslo at 120', 'computed']);
    expect(ran).toEqual({ book: 2, weather: 1 });
  });
});
