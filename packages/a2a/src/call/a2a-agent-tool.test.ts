import { type Part, TaskState } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { chatWorkflow, InMemoryCheckpointStore, SkeinEngine } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { InvalidArgumentError, type LLMRequest } from '@skein/spec';
import { afterEach, describe, expect, it } from 'vitest';
import { a2aAgentTool } from './a2a-agent-tool.js';
import { A2ACallError } from './a2a-call-error.js';
import { type A2ATestServer, startA2ATestServer } from './test-support/a2a-test-server.js';
import { closedPortUrl, runInEngine } from './test-support/run-in-engine.js';
import { type AgentTurn, ScriptedAgentExecutor, textPart } from './test-support/scripted-agent.js';
import { toolContext } from './test-support/tool-context.js';

const servers: A2ATestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function agent(script: AgentTurn[], options: { name?: string; cardBody?: string } = {}) {
  const executor = new ScriptedAgentExecutor(script);
  const server = await startA2ATestServer({
    executor,
    name: options.name ?? 'Weather Agent',
    description: 'Forecasts the weather.',
    skills: [{ id: 'forecast', name: 'Forecast', description: 'Weather for a city' }],
    ...(options.cardBody === undefined ? {} : { cardBody: options.cardBody }),
  });
  servers.push(server);
  return { executor, server };
}

// A PNG signature and a few bytes: what Skein checks an image/png part's bytes against.
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

const part = (content: Part['content'], mediaType = '', filename = ''): Part => ({
  content,
  metadata: undefined,
  filename,
  mediaType,
});

/** The `message`, `taskId` and `contextId` the model reads in an input-required result. */
function idsIn(request: LLMRequest): { taskId: string; contextId: string } {
  const text = JSON.stringify(request.messages.at(-1)!.content);
  const found = /taskId \\"([^\\]+)\\" and contextId \\"([^\\]+)\\"/.exec(text);
  if (!found) throw new Error(`no ids in ${text}`);
  return { taskId: found[1]!, contextId: found[2]! };
}

/** An agent that asks which city, then forecasts rain in the city it is told. */
const asksTheCity: AgentTurn[] = [
  (turn) => turn.status(TaskState.TASK_STATE_INPUT_REQUIRED, 'Which city?'),
  (turn) => {
    turn.status(TaskState.TASK_STATE_WORKING);
    turn.artifact([textPart(`Rain in ${turn.text}.`)]);
    turn.status(TaskState.TASK_STATE_COMPLETED);
  },
];

describe('a2aAgentTool in a Skein thread', () => {
  it('a completed task gives its artifacts: text, data as JSON, files by URL and by bytes', async () => {
    const { server } = await agent([
      (turn) => {
        turn.status(TaskState.TASK_STATE_WORKING);
        turn.artifact([
          textPart(`Sunny in ${turn.text}.`),
          part({ $case: 'data', value: { tempC: 21, wind: 'light' } }, 'application/json'),
        ]);
        turn.artifact([
          part({ $case: 'url', value: 'https://example.com/r.pdf' }, 'application/pdf', 'r.pdf'),
          part({ $case: 'raw', value: Buffer.from(PNG) }, 'image/png'),
        ]);
        turn.status(TaskState.TASK_STATE_COMPLETED);
      },
    ]);
    const tool = await a2aAgentTool({
      url: server.url,
      headers: { Authorization: 'Bearer secret' },
      pollIntervalMs: 1,
    });
    expect(tool.name).toBe('weather_agent');
    expect(tool.source).toBe('a2a:Weather Agent');

    const { result, toolMessages, llm } = await runInEngine(tool, [
      { toolCalls: [{ name: 'weather_agent', arguments: { message: 'Lisbon' } }] },
      { content: 'It is sunny.' },
    ]);

    expect(result.status).toBe('COMPLETED');
    const offered = llm.requests[0]!.tools.find((t) => t.name === 'weather_agent')!;
    expect(offered.description).toContain('Forecasts the weather.');
    expect(offered.description).toContain('- Forecast: Weather for a city');
    const [message] = toolMessages;
    expect(message!.content).toEqual([
      { type: 'text', text: 'Sunny in Lisbon.\n{"tempC":21,"wind":"light"}' },
      {
        type: 'file',
        mediaType: 'application/pdf',
        filename: 'r.pdf',
        url: 'https://example.com/r.pdf',
      },
      // The engine keeps inline bytes as base64 (what JSON and every store carry).
      { type: 'image', mediaType: 'image/png', data: Buffer.from(PNG).toString('base64') },
    ]);
    const send = server.calls.find((c) => c.method === 'SendMessage')!;
    const taskId = server.calls.find((c) => c.method === 'GetTask')?.params.id;
    expect(message!.metadata).toMatchObject({
      data: { taskId, contextId: expect.any(String), state: 'TASK_STATE_COMPLETED' },
    });
    expect(message!.metadata!.isError).not.toBe(true);
    // The engine's idempotency key is the message id: a retried call is the same message.
    const sent = send.params.message as { messageId: string };
    expect(sent.messageId).toContain(result.threadId);
    // The extra headers reach the card request and every call.
    expect(server.cardRequests[0]!.authorization).toBe('Bearer secret');
    expect(server.calls.every((c) => c.headers.authorization === 'Bearer secret')).toBe(true);
  });

  it('an agent that answers with a message gives its text', async () => {
    const { server } = await agent([(turn) => turn.reply(`Hello, ${turn.text}!`)]);
    const tool = await a2aAgentTool({ card: server.card, name: 'greeter' });
    const { toolMessages } = await runInEngine(tool, [
      { toolCalls: [{ name: 'greeter', arguments: { message: 'Ada' } }] },
      { content: 'Done.' },
    ]);
    expect(toolMessages[0]!.content).toBe('Hello, Ada!');
    expect(server.cardRequests).toEqual([]);
  });

  it("input required: the thread pauses with the agent's question, and the answer goes to the same task, once", async () => {
    const { server, executor } = await agent(asksTheCity);
    const tool = await a2aAgentTool({ url: server.url, pollIntervalMs: 1 });
    const llm = new ScriptedLLMClient([
      { toolCalls: [{ name: 'weather_agent', arguments: { message: 'Weather please' } }] },
      (request) => ({ content: String(request.messages.at(-1)!.content) }),
    ]);
    const engine = new SkeinEngine({ llm, store: new InMemoryCheckpointStore() });
    engine.registerTool(tool);
    engine.registerWorkflow(chatWorkflow({ tools: [tool.name] }));

    const paused = await engine.send('t1', 'Help me.');
    expect(paused.thread.status).toBe('PAUSED');
    expect(paused.thread.state.pending).toMatchObject({
      kind: 'user-input',
      prompt: 'Weather Agent: Which city?',
    });
    const { thread } = await engine.resume('t1', 'Porto');
    expect(thread.status).toBe('COMPLETED');
    const [first, second] = executor.turns;
    expect(second!.taskId).toBe(first!.taskId);
    expect(second!.text).toBe('Porto');
    const tools = thread.conversation.getAllMessages().filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.content)).toEqual(['Rain in Porto.']);
    expect(thread.conversation.getAllMessages().at(-1)!.content).toBe('Rain in Porto.');
    // A second answer finds nothing waiting: the agent hears the answer once.
    await expect(engine.resume('t1', 'Lisbon')).rejects.toMatchObject({ code: 'THREAD_STATE' });
    const sends = server.calls.filter((c) => c.method === 'SendMessage');
    expect(sends).toHaveLength(2);
  });

  it('input required with inputRequired "ask-model": the model is told what the agent asks, and answers with taskId', async () => {
    const { server, executor } = await agent(asksTheCity);
    const tool = await a2aAgentTool({
      url: server.url,
      pollIntervalMs: 1,
      inputRequired: 'ask-model',
    });
    const { result, toolMessages } = await runInEngine(tool, [
      { toolCalls: [{ name: 'weather_agent', arguments: { message: 'Weather please' } }] },
      (request) => ({
        toolCalls: [{ name: 'weather_agent', arguments: { message: 'Porto', ...idsIn(request) } }],
      }),
      { content: 'It rains in Porto.' },
    ]);

    expect(result.status).toBe('COMPLETED');
    const [asked, answered] = toolMessages;
    const [first, second] = executor.turns;
    expect(asked!.metadata!.isError).not.toBe(true);
    expect(asked!.content).toBe(
      `The agent "Weather Agent" needs more input to go on with the task. It says:\nWhich city?\nTo answer, call this tool again with your answer as \`message\`, taskId "${first!.taskId}" and contextId "${first!.contextId}".`,
    );
    expect(asked!.metadata!.data).toEqual({
      taskId: first!.taskId,
      contextId: first!.contextId,
      state: 'TASK_STATE_INPUT_REQUIRED',
    });
    expect(second!.taskId).toBe(first!.taskId);
    expect(second!.text).toBe('Porto');
    expect(answered!.content).toBe('Rain in Porto.');
    expect(server.calls.filter((c) => c.method === 'SendMessage')).toHaveLength(2);
  });

  it('a failed task is an error result with what the agent said', async () => {
    const { server } = await agent([
      (turn) => turn.status(TaskState.TASK_STATE_FAILED, 'The forecast service is down.'),
    ]);
    const tool = await a2aAgentTool({ url: server.url });
    const { toolMessages } = await runInEngine(tool, [
      { toolCalls: [{ name: 'weather_agent', arguments: { message: 'Oslo' } }] },
      { content: 'Sorry.' },
    ]);
    expect(toolMessages[0]!.content).toBe(
      'The agent "Weather Agent" failed: The forecast service is down.',
    );
    expect(toolMessages[0]!.metadata).toMatchObject({
      isError: true,
      data: { state: 'TASK_STATE_FAILED' },
    });
  });

  it('auth required is a question too; rejected and canceled are errors', async () => {
    // The engine may run the three calls at once: each turn answers by what it was sent.
    const byText: AgentTurn = (turn) => {
      if (turn.text === 'a')
        turn.status(TaskState.TASK_STATE_AUTH_REQUIRED, 'Sign in at https://example.com.');
      else if (turn.text === 'b') turn.status(TaskState.TASK_STATE_REJECTED, 'I only do weather.');
      else turn.status(TaskState.TASK_STATE_CANCELED);
    };
    const { server } = await agent([byText, byText, byText]);
    const tool = await a2aAgentTool({ url: server.url, name: 'w', timeoutMs: 120_000 });
    expect(tool.timeoutMs).toBe(120_000);
    const { toolMessages } = await runInEngine(tool, [
      {
        toolCalls: [
          { name: 'w', arguments: { message: 'a' } },
          { name: 'w', arguments: { message: 'b' } },
          { name: 'w', arguments: { message: 'c' } },
        ],
      },
      { content: 'Well.' },
    ]);
    const [auth, rejected, canceled] = toolMessages;
    expect(auth!.content).toMatch(
      /^The agent "Weather Agent" needs authorization to go on with the task\. It says:\nSign in at https:\/\/example\.com\.\nTo answer, call this tool again/,
    );
    expect(auth!.metadata).toMatchObject({ data: { state: 'TASK_STATE_AUTH_REQUIRED' } });
    expect(auth!.metadata!.isError).not.toBe(true);
    expect(rejected!.content).toBe('The agent "Weather Agent" rejected: I only do weather.');
    expect(canceled!.content).toBe('The agent "Weather Agent" was canceled.');
    expect([rejected, canceled].map((m) => m!.metadata!.isError)).toEqual([true, true]);
  });

  it('aborting the thread while the task runs cancels the task at the agent, once', async () => {
    const { server, executor } = await agent([
      async (turn) => {
        turn.status(TaskState.TASK_STATE_WORKING);
        await turn.canceled;
      },
    ]);
    const tool = await a2aAgentTool({ url: server.url, pollIntervalMs: 1 });
    const controller = new AbortController();
    // Abort once the tool is polling: it knows the task by then.
    void server.waitForCall('GetTask').then(() => controller.abort(new Error('user stopped')));
    const run = runInEngine(
      tool,
      [{ toolCalls: [{ name: 'weather_agent', arguments: { message: 'Rome' } }] }],
      { signal: controller.signal },
    );
    expect((await run).result.status).toBe('CANCELLED');

    const cancel = await server.waitForCall('CancelTask');
    const taskId = executor.turns[0]!.taskId;
    expect(cancel.params.id).toBe(taskId);
    await cancel.answered;
    const client = await new ClientFactory().createFromUrl(server.url);
    const task = await client.getTask({ tenant: '', id: taskId });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(executor.canceledTaskIds).toEqual([taskId]);
    expect(server.calls.filter((c) => c.method === 'CancelTask')).toHaveLength(1);
  });

  it('an unreachable agent is an A2A_CALL_FAILED tool error, retryable', async () => {
    const { server } = await agent([]);
    const gone = await closedPortUrl();
    const card = {
      ...server.card,
      supportedInterfaces: [{ ...server.card.supportedInterfaces[0]!, url: `${gone}/` }],
    };
    const tool = await a2aAgentTool({ card });
    const failure = await Promise.resolve(tool.execute({ message: 'hi' }, toolContext())).catch(
      (error: unknown) => error,
    );
    expect(A2ACallError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({
      code: 'A2A_CALL_FAILED',
      retryable: true,
      agent: 'Weather Agent',
      operation: 'SendMessage',
    });

    const { toolMessages } = await runInEngine(tool, [
      { toolCalls: [{ name: 'weather_agent', arguments: { message: 'hi' } }] },
      { content: 'It is down.' },
    ]);
    expect(toolMessages[0]!.content).toMatch(
      /^Error \[A2A_CALL_FAILED\]: A2A agent "Weather Agent": SendMessage failed: unreachable/,
    );
    expect(toolMessages[0]!.metadata).toMatchObject({ isError: true });
  });

  it('an agent card URL where nothing listens fails at a2aAgentTool time', async () => {
    const url = await closedPortUrl();
    const failure = await a2aAgentTool({ url }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(A2ACallError);
    expect(failure).toMatchObject({
      code: 'A2A_CALL_FAILED',
      retryable: true,
      agent: url,
      operation: 'agent card',
    });
  });

  it('a JSON-RPC error from the agent is A2A_CALL_FAILED with its code, not retryable', async () => {
    const { server } = await agent([]);
    const tool = await a2aAgentTool({ url: server.url });
    const { toolMessages } = await runInEngine(tool, [
      {
        toolCalls: [
          { name: 'weather_agent', arguments: { message: 'hi', taskId: 'no-such-task' } },
        ],
      },
      { content: 'Hmm.' },
    ]);
    expect(toolMessages[0]!.content).toMatch(
      /^Error \[A2A_CALL_FAILED\]: A2A agent "Weather Agent": SendMessage failed: .*no-such-task/,
    );
    const failure = await Promise.resolve(
      tool.execute({ message: 'hi', taskId: 'no-such-task' }, toolContext()),
    ).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'A2A_CALL_FAILED', rpcCode: -32001, retryable: false });
    expect(server.calls.filter((c) => c.method === 'CancelTask')).toEqual([]);
  });
});

describe('a2aAgentTool: cards and options it refuses', () => {
  it('a served card that is not an agent card', async () => {
    const { server } = await agent([], { cardBody: JSON.stringify({ hello: 'world' }) });
    await expect(a2aAgentTool({ url: server.url })).rejects.toMatchObject({
      code: 'A2A_AGENT_CARD_INVALID',
      retryable: false,
      message: expect.stringContaining('`name` must be a non-empty string'),
    });
    const notJson = await agent([], { cardBody: '<html>hello</html>' });
    await expect(a2aAgentTool({ url: notJson.server.url })).rejects.toMatchObject({
      code: 'A2A_AGENT_CARD_INVALID',
    });
  });

  it('a given card with no interface, or none the SDK can use', async () => {
    const { server } = await agent([]);
    await expect(
      a2aAgentTool({ card: { ...server.card, supportedInterfaces: [] } }),
    ).rejects.toMatchObject({
      code: 'A2A_AGENT_CARD_INVALID',
      agent: 'Weather Agent',
      message: expect.stringContaining('supportedInterfaces'),
    });
    const grpcOnly = {
      ...server.card,
      supportedInterfaces: [{ ...server.card.supportedInterfaces[0]!, protocolBinding: 'GRPC' }],
    };
    await expect(a2aAgentTool({ card: grpcOnly })).rejects.toMatchObject({
      code: 'A2A_AGENT_CARD_INVALID',
      message: expect.stringContaining('No compatible transport'),
    });
  });

  it('bad options', async () => {
    const { server } = await agent([]);
    await expect(a2aAgentTool({})).rejects.toThrowError(InvalidArgumentError);
    await expect(a2aAgentTool({ url: server.url, card: server.card })).rejects.toThrowError(
      /exactly one of `url` and `card`/,
    );
    await expect(a2aAgentTool({ card: server.card, name: 'has space' })).rejects.toThrowError(
      /`name` must match/,
    );
    await expect(a2aAgentTool({ card: server.card, pollIntervalMs: 0 })).rejects.toThrowError(
      /`pollIntervalMs` must be an integer/,
    );
    await expect(
      a2aAgentTool({ card: server.card, inputRequired: 'ask' as never }),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: 'options.inputRequired',
    });
  });
});
