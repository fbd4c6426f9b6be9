import { DefaultChatTransport, type UIMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningChatServer, startChatServer } from './start-chat-server.js';
import { lastMessage } from './test-support/ai-reader.js';
import { answerApprovals } from './test-support/as-caller.js';
import { chatEngine, payments, SLOW_ANSWER } from './test-support/chat-fixture.js';
import { GatedLLMClient } from './test-support/gated-llm-client.js';

let server: RunningChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(options: { tokenDelayMs?: number } = {}) {
  const fixture = chatEngine(options);
  server = await startChatServer({ engine: fixture.engine });
  const transport = new DefaultChatTransport<UIMessage>({ api: `${server.url}/api/chat` });
  return { ...fixture, transport, url: server.url };
}

const user = (id: string, text: string): UIMessage => ({
  id,
  role: 'user',
  parts: [{ type: 'text', text }],
});

type Transport = DefaultChatTransport<UIMessage>;

/** One `useChat` submission: the stream read with the ai package's own reader. */
async function submit(
  transport: Transport,
  chatId: string,
  messages: UIMessage[],
  trigger: 'submit-message' | 'regenerate-message' = 'submit-message',
): Promise<UIMessage> {
  const last = messages.at(-1)!;
  const stream = await transport.sendMessages({
    chatId,
    messages,
    trigger,
    messageId: undefined,
    abortSignal: undefined,
  });
  return lastMessage(
    stream as never,
    last.role === 'assistant' ? structuredClone(last) : undefined,
  );
}

describe('the chat handler, through the ai package’s DefaultChatTransport', () => {
  it('answers each new user message in the same thread', async () => {
    const { transport, engine } = await serve();
    const first = await submit(transport, 'c1', [user('u1', 'hello')]);
    expect(first).toMatchObject({ id: 'u1-answer', role: 'assistant' });
    expect(first.parts.at(-1)).toMatchObject({ type: 'text', text: 're: hello' });
    const second = await submit(transport, 'c1', [user('u1', 'hello'), first, user('u2', 'again')]);
    expect(second.parts.at(-1)).toMatchObject({ type: 'text', text: 're: again' });
    const stored = (await engine.getThread('c1'))!.conversation.getAllMessages();
    expect(stored.filter((m) => m.role !== 'system').map((m) => m.content)).toEqual([
      'hello',
      're: hello',
      'again',
      're: again',
    ]);
  });

  it('refuses an edited history with HISTORY_MISMATCH, storing nothing', async () => {
    const { transport, engine } = await serve();
    const first = await submit(transport, 'c2', [user('u1', 'hello')]);
    const edited = [user('u1', 'HELLO'), first, user('u2', 'again')];
    await expect(submit(transport, 'c2', edited)).rejects.toThrow(/HISTORY_MISMATCH/);
    await expect(submit(transport, 'c2', [user('u2', 'again')])).rejects.toThrow(
      /HISTORY_MISMATCH/,
    );
    expect((await engine.getThread('c2'))!.conversation.getAllMessages()).toHaveLength(3);
  });

  it('asks for approval, runs the tool once approved, and refuses the same approval again', async () => {
    const { transport } = await serve();
    payments.length = 0;
    const history = [user('u1', 'pay 5')];
    const asked = await submit(transport, 'c3', history);
    expect(asked.parts.at(-1)).toMatchObject({
      type: 'tool-pay',
      toolCallId: 'call-pay-5',
      state: 'approval-requested',
      input: { amount: 5 },
      approval: { id: 'call-pay-5' },
    });
    const approved = answerApprovals(asked, true);
    const done = await submit(transport, 'c3', [...history, approved]);
    expect(done.id).toBe(asked.id);
    expect(done.parts.find((p) => p.type === 'tool-pay')).toMatchObject({
      state: 'output-available',
      output: { paid: 5 },
    });
    expect(done.parts.at(-1)).toMatchObject({ type: 'text', text: 'Done: {"paid":5}' });
    expect(payments).toEqual([5]);
    await expect(submit(transport, 'c3', [...history, approved])).rejects.toThrow(
      /APPROVAL_NOT_PENDING/,
    );
    expect(payments).toEqual([5]);
  });

  it('resumes a pause once when the same approval arrives twice at the same time', async () => {
    const { url, transport } = await serve();
    payments.length = 0;
    const history = [user('u1', 'pay 7')];
    const approved = answerApprovals(await submit(transport, 'c4', history), true);
    const body = JSON.stringify({
      id: 'c4',
      messages: [...history, approved],
      trigger: 'submit-message',
    });
    const post = () =>
      fetch(`${url}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    const answers = await Promise.all([post(), post()]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    await Promise.all(answers.map((r) => r.text()));
    expect(payments).toEqual([7]);
  });

  it('replays an answer resumed by an approval whole: the stored tool call, then the rest', async () => {
    let gated!: GatedLLMClient;
    const fixture = chatEngine({
      wrap: (llm) => {
        gated = new GatedLLMClient(llm, (r) => r.messages.at(-1)?.role === 'tool', 'Paid, thanks.');
        return gated;
      },
    });
    server = await startChatServer({ engine: fixture.engine });
    const transport = new DefaultChatTransport<UIMessage>({ api: `${server.url}/api/chat` });
    const history = [user('u1', 'pay 2')];
    const approved = answerApprovals(await submit(transport, 'c10', history), true);
    const live = await transport.sendMessages({
      chatId: 'c10',
      messages: [...history, approved],
      trigger: 'submit-message',
      messageId: undefined,
      abortSignal: undefined,
    });
    // A reader who never saw the approval request (a reloaded page) gets the whole answer.
    const replay = await transport.reconnectToStream({ chatId: 'c10' });
    gated.open();
    const replayed = await lastMessage(replay as never);
    expect(replayed.id).toBe(approved.id);
    expect(replayed.parts.find((p) => p.type === 'tool-pay')).toMatchObject({
      state: 'output-available',
      input: { amount: 2 },
      output: { paid: 2 },
    });
    expect(replayed.parts.at(-1)).toMatchObject({ type: 'text', text: 'Paid, thanks.' });
    expect(
      (await lastMessage(live as never, structuredClone(approved))).parts.at(-1),
    ).toMatchObject({
      text: 'Paid, thanks.',
    });
  });

  it('shows a rejection as output-denied, and the model reads the reason', async () => {
    const { transport, llm } = await serve();
    const history = [user('u1', 'pay 9')];
    const asked = await submit(transport, 'c5', history);
    const done = await submit(transport, 'c5', [
      ...history,
      answerApprovals(asked, false, 'too much'),
    ]);
    expect(done.parts.find((p) => p.type === 'tool-pay')).toMatchObject({ state: 'output-denied' });
    expect(done.parts.at(-1)).toMatchObject({
      type: 'text',
      text: expect.stringContaining('too much'),
    });
    expect(llm.requests.at(-1)!.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: expect.stringContaining('too much'),
    });
  });

  it('regenerates the last answer in a fork from the checkpoint before it', async () => {
    const { transport, engine } = await serve();
    const first = await submit(transport, 'c6', [user('u1', 'hello')]);
    const second = await submit(transport, 'c6', [user('u1', 'hello'), first, user('u2', 'again')]);
    const again = await submit(
      transport,
      'c6',
      [user('u1', 'hello'), first, user('u2', 'again')],
      'regenerate-message',
    );
    expect(again.id).toBe(second.id);
    expect(again.parts.at(-1)).toMatchObject({ type: 'text', text: 're: again' });
    const fork = (await engine.getThread('c6~1'))!.conversation.getAllMessages();
    expect(fork.filter((m) => m.role !== 'system').map((m) => m.content)).toEqual([
      'hello',
      're: hello',
      'again',
      're: again',
    ]);
    // The chat goes on in the fork.
    await submit(transport, 'c6', [
      user('u1', 'hello'),
      first,
      user('u2', 'again'),
      again,
      user('u3', 'more'),
    ]);
    expect((await engine.getThread('c6~1'))!.conversation.getAllMessages().at(-1)!.content).toBe(
      're: more',
    );
    expect((await engine.getThread('c6'))!.conversation.getAllMessages()).toHaveLength(5);
  });

  it('replays a running answer from its start to a reader who reconnects, then follows it', async () => {
    const { transport } = await serve({ tokenDelayMs: 10 });
    const first = await transport.sendMessages({
      chatId: 'c7',
      messages: [user('u1', 'slow')],
      trigger: 'submit-message',
      messageId: undefined,
      abortSignal: undefined,
    });
    const reader = first.getReader();
    for (let seen = 0; seen < 3; ) if ((await reader.read()).value?.type === 'text-delta') seen++;
    await reader.cancel();
    const resumed = await transport.reconnectToStream({ chatId: 'c7' });
    const message = await lastMessage(resumed as never);
    expect(message.id).toBe('u1-answer');
    expect(message.parts.at(-1)).toMatchObject({ type: 'text', text: SLOW_ANSWER, state: 'done' });
    expect(await transport.reconnectToStream({ chatId: 'c7' })).toBeNull();
  });

  it('stops a running answer from the stop endpoint: the stream ends with abort', async () => {
    const { transport, url, engine } = await serve({ tokenDelayMs: 10 });
    const stream = await transport.sendMessages({
      chatId: 'c8',
      messages: [user('u1', 'slow')],
      trigger: 'submit-message',
      messageId: undefined,
      abortSignal: undefined,
    });
    const types: string[] = [];
    const reader = stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      types.push(value.type);
      if (types.filter((t) => t === 'text-delta').length === 2)
        expect((await fetch(`${url}/api/chat/c8/stop`, { method: 'POST' })).status).toBe(204);
    }
    expect(types.at(-1)).toBe('abort');
    expect((await engine.getThread('c8'))!.status).toBe('CANCELLED');
  });

  it('lists the stored chat as useChat messages, a pending approval included', async () => {
    const { transport, url } = await serve();
    const asked = await submit(transport, 'c9', [user('u1', 'pay 3')]);
    const { messages } = (await (await fetch(`${url}/api/chat/c9/messages`)).json()) as {
      messages: UIMessage[];
    };
    expect(messages).toEqual([
      user('u1', 'pay 3'),
      {
        id: asked.id,
        role: 'assistant',
        parts: [
          { type: 'step-start' },
          expect.objectContaining({
            type: 'tool-pay',
            state: 'approval-requested',
            approval: { id: 'call-pay-3' },
          }),
        ],
      },
    ]);
  });
});
