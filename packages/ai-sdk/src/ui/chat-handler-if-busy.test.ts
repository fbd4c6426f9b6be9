import { InMemoryCheckpointStore } from '@skein/core';
import { DefaultChatTransport, type UIMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { createChatHandler } from './chat-handler.js';
import type { ChatIfBusy } from './chat-if-busy.js';
import { type RunningChatServer, startChatServer } from './start-chat-server.js';
import { lastMessage, readResponseChunks } from './test-support/ai-reader.js';
import { busyChat } from './test-support/busy-chat.js';
import { collect } from './test-support/read-stream.js';
import type { UIChunk } from './ui-chunk.js';

let server: RunningChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const user = (id: string, text: string): UIMessage => ({
  id,
  role: 'user',
  parts: [{ type: 'text', text }],
});
/** What `useChat` holds of an answer still streaming when the user sends again. */
const partial = (id: string): UIMessage => ({
  id,
  role: 'assistant',
  parts: [{ type: 'step-start' }],
});

async function serve(ifBusy?: ChatIfBusy, chat = busyChat()) {
  server = await startChatServer({ engine: chat.engine, ...(ifBusy ? { ifBusy } : {}) });
  const transport = new DefaultChatTransport<UIMessage>({ api: `${server.url}/api/chat` });
  const send = (chatId: string, messages: UIMessage[]) =>
    transport.sendMessages({
      chatId,
      messages,
      trigger: 'submit-message',
      messageId: undefined,
      abortSignal: undefined,
    });
  return { ...chat, transport, send, url: server.url };
}

/** The chat's first answer, held in its tool; then `second` sent while it runs, and stored. */
async function whileAnswering(ifBusy: ChatIfBusy, chatId: string) {
  const chat = await serve(ifBusy);
  const first = await chat.send(chatId, [user('u1', 'look it up')]);
  await chat.running;
  const posted = chat.posted();
  const second = await chat.send(chatId, [
    user('u1', 'look it up'),
    partial('u1-answer'),
    user('u2', 'second'),
  ]);
  await posted;
  return { ...chat, first, second };
}

const stored = async (chat: Awaited<ReturnType<typeof serve>>, chatId: string) =>
  (await chat.engine.getThread(chatId))!.conversation
    .getAllMessages()
    .filter((m) => m.role !== 'system')
    .map((m) => (m.toolCalls ? 'calls' : m.content));

const textOf = (message: UIMessage) =>
  message.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');

describe('a second message while the chat answers (ifBusy)', () => {
  it('queue (default): the first answer ends whole, then the second is answered', async () => {
    const chat = await whileAnswering('queue', 'q1');
    // A reader who reloads now follows the answer that runs: the first.
    const replay = await chat.transport.reconnectToStream({ chatId: 'q1' });
    chat.finish();
    const [first, second, replayed] = await Promise.all([
      lastMessage(chat.first as never),
      lastMessage(chat.second as never),
      lastMessage(replay as never),
    ]);
    expect(first.id).toBe('u1-answer');
    expect(first.parts.find((p) => p.type === 'tool-lookup')).toMatchObject({
      state: 'output-available',
      output: 'found x',
    });
    expect(textOf(first)).toBe('re: look it up');
    expect(replayed.id).toBe('u1-answer');
    // Only its own turn: none of the first answer's parts.
    expect(second.id).toBe('u2-answer');
    expect(second.parts.some((p) => p.type === 'tool-lookup')).toBe(false);
    expect(textOf(second)).toBe('re: second');
    expect(await stored(chat, 'q1')).toEqual([
      'look it up',
      'calls',
      'found x',
      're: look it up',
      'second',
      're: second',
    ]);
  });

  it('queue: a third message checks its history against the stored and the waiting ones; the last one taken answers', async () => {
    const chat = await whileAnswering('queue', 'q2');
    const posted = chat.posted();
    const third = await chat.send('q2', [
      user('u1', 'look it up'),
      partial('u1-answer'),
      user('u2', 'second'),
      { id: 'u2-answer', role: 'assistant', parts: [] },
      user('u3', 'third'),
    ]);
    await posted;
    chat.finish();
    await collect(chat.first);
    // One turn takes both waiting messages and answers after the last of them.
    const secondChunks = await collect(chat.second);
    expect(secondChunks.map((c) => c.type)).toEqual(['start', 'finish']);
    const answer = await lastMessage(third as never);
    expect(answer.id).toBe('u3-answer');
    expect(textOf(answer)).toBe('re: third');
    expect((await stored(chat, 'q2')).slice(4)).toEqual(['second', 'third', 're: third']);
  });

  it('steer: the running answer’s next model call sees the message; its stream starts there', async () => {
    const chat = await whileAnswering('steer', 's1');
    chat.finish();
    const [first, second] = await Promise.all([
      lastMessage(chat.first as never),
      lastMessage(chat.second as never),
    ]);
    expect(chat.llm.requests).toHaveLength(2);
    expect(chat.llm.requests[1]!.messages.at(-1)).toMatchObject({
      role: 'user',
      content: 'second',
    });
    // The first stream shows the whole turn, the second the rest from where the message joined.
    expect(first.parts.some((p) => p.type === 'tool-lookup')).toBe(true);
    expect(textOf(first)).toBe('re: second');
    expect(second.id).toBe('u2-answer');
    expect(second.parts.some((p) => p.type === 'tool-lookup')).toBe(false);
    expect(textOf(second)).toBe('re: second');
    expect(await stored(chat, 's1')).toEqual([
      'look it up',
      'calls',
      'found x',
      'second',
      're: second',
    ]);
  });

  it('interrupt: the first answer ends with abort after its tool round, the second is answered', async () => {
    const chat = await whileAnswering('interrupt', 'i1');
    chat.finish();
    const [firstChunks, second] = await Promise.all([
      collect(chat.first),
      lastMessage(chat.second as never),
    ]);
    expect(firstChunks.at(-1)).toEqual({
      type: 'abort',
      reason: 'the run was interrupted by a new message',
    });
    expect(firstChunks).toContainEqual({
      type: 'tool-output-available',
      toolCallId: 'call-lookup',
      output: 'found x',
    });
    expect(firstChunks.some((c) => c.type === 'text-delta')).toBe(false);
    expect(textOf(second)).toBe('re: second');
    expect(await stored(chat, 'i1')).toEqual([
      'look it up',
      'calls',
      'found x',
      'second',
      're: second',
    ]);
    expect((await chat.engine.getThread('i1'))!.status).toBe('COMPLETED');
  });

  it('reject: the second message is refused with 409 CHAT_BUSY, nothing stored', async () => {
    const chat = await serve('reject');
    const first = await chat.send('r1', [user('u1', 'look it up')]);
    await chat.running;
    const refused = await fetch(`${chat.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: 'r1',
        messages: [user('u1', 'look it up'), partial('u1-answer'), user('u2', 'second')],
        trigger: 'submit-message',
      }),
    });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: { code: 'CHAT_BUSY' } });
    chat.finish();
    expect(textOf(await lastMessage(first as never))).toBe('re: look it up');
    expect(await chat.store.pendingMessages('r1')).toEqual([]);
  });

  it('a thread another process runs: the stream ends at once with data-skein-posted', async () => {
    const store = new InMemoryCheckpointStore();
    const runner = busyChat(store, 'runner');
    const here = await serve(undefined, busyChat(store, 'here'));
    const running = runner.engine.send('x1', 'look it up');
    await runner.running;
    const response = await fetch(`${here.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: 'x1',
        messages: [user('u1', 'look it up'), user('u2', 'from here')],
        trigger: 'submit-message',
      }),
    });
    const chunks: UIChunk[] = await readResponseChunks(response);
    expect(chunks).toEqual([
      { type: 'start', messageId: 'u2-answer' },
      {
        type: 'data-skein-posted',
        data: { threadId: 'x1', seq: 1, status: 'RUNNING' },
        transient: true,
      },
      { type: 'finish' },
    ]);
    runner.finish();
    await running;
    // The runner took it in the turn after its own; a send there waits for that turn to end.
    const last = await runner.engine.send('x1', 'and last');
    expect(
      last.thread.conversation
        .getAllMessages()
        .filter((m) => m.role === 'user')
        .map((m) => m.content),
    ).toEqual(['look it up', 'from here', 'and last']);
  });

  it('refuses an unknown ifBusy when the handler is made', () => {
    const { engine } = busyChat();
    expect(() => createChatHandler({ engine, ifBusy: 'later' as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'ifBusy' }),
    );
  });
});
