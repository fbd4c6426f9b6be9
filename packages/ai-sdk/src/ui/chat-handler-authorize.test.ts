import { bearerToken } from '@skein/http';
import { DefaultChatTransport, type UIMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningChatServer, startChatServer } from './start-chat-server.js';
import { lastMessage } from './test-support/ai-reader.js';
import { answerApprovals, callAs } from './test-support/as-caller.js';
import { chatEngine, payments } from './test-support/chat-fixture.js';
import { GatedLLMClient } from './test-support/gated-llm-client.js';

// Two users of one chat server, each with a bearer token: what one starts is the other's 404 on
// every route, and a request with no caller is 401.

const ANSWER = 'An answer held half-way, so the other user can try to read or stop it.';
const TOKENS: Record<string, string> = { 'ada-token': 'ada', 'bob-token': 'bob' };

let server: RunningChatServer | undefined;
let gated: GatedLLMClient | undefined;
afterEach(async () => {
  gated?.open();
  await server?.close();
  server = undefined;
});

async function serve() {
  const fixture = chatEngine({
    wrap: (llm) => {
      gated = new GatedLLMClient(llm, 'slow please', ANSWER);
      return gated;
    },
  });
  server = await startChatServer({
    engine: fixture.engine,
    authorize: (request) => TOKENS[bearerToken(request.headers.get('authorization')) ?? ''],
  });
  const url = server.url;
  const as = (token: string) =>
    new DefaultChatTransport<UIMessage>({
      api: `${url}/api/chat`,
      headers: { authorization: `Bearer ${token}` },
    });
  return { ...fixture, url, ada: as('ada-token'), bob: as('bob-token') };
}

const user = (id: string, text: string): UIMessage => ({
  id,
  role: 'user',
  parts: [{ type: 'text', text }],
});

type Transport = DefaultChatTransport<UIMessage>;

function send(
  transport: Transport,
  chatId: string,
  messages: UIMessage[],
  trigger: 'submit-message' | 'regenerate-message' = 'submit-message',
) {
  return transport.sendMessages({
    chatId,
    messages,
    trigger,
    messageId: undefined,
    abortSignal: undefined,
  });
}

async function submit(
  transport: Transport,
  chatId: string,
  messages: UIMessage[],
  trigger?: 'submit-message' | 'regenerate-message',
): Promise<UIMessage> {
  const last = messages.at(-1)!;
  return lastMessage(
    (await send(transport, chatId, messages, trigger)) as never,
    last.role === 'assistant' ? structuredClone(last) : undefined,
  );
}

describe('the chat handler with authorize: two users', () => {
  it('refuses a request naming no caller with 401 and a challenge, on every route', async () => {
    const { url } = await serve();
    const body = { id: 'c0', messages: [user('u1', 'hi')], trigger: 'submit-message' };
    for (const token of [undefined, 'forged-token'])
      for (const [path, method] of [
        ['/api/chat', 'POST'],
        ['/api/chat/c0/messages', 'GET'],
        ['/api/chat/c0/stream', 'GET'],
        ['/api/chat/c0/stop', 'POST'],
      ] as const) {
        const answer = await callAs(
          `${url}${path}`,
          token,
          method,
          method === 'POST' ? body : undefined,
        );
        expect([path, answer.status, answer.code, answer.challenge]).toEqual([
          path,
          401,
          'UNAUTHORIZED',
          'Bearer realm="skein"',
        ]);
      }
  });

  it("answers another user's messages, reads and regenerations with 404, changing nothing", async () => {
    const { url, ada, bob, engine, store } = await serve();
    const first = await submit(ada, 'a1', [user('u1', 'hello')]);
    expect(first.parts.at(-1)).toMatchObject({ type: 'text', text: 're: hello' });
    expect((await engine.getThread('a1'))!.state.principal).toBe('ada');
    const before = await store.list('a1');

    const read = await callAs(`${url}/api/chat/a1/messages`, 'bob-token');
    expect([read.status, read.code]).toEqual([404, 'CHAT_NOT_FOUND']);
    await expect(
      submit(bob, 'a1', [user('u1', 'hello'), first, user('u2', 'mine now')]),
    ).rejects.toThrow(/CHAT_NOT_FOUND/);
    // Sent as a first message, as if the chat were new: the id is Ada's, so it is no chat of Bob's.
    await expect(submit(bob, 'a1', [user('b1', 'hello?')])).rejects.toThrow(/CHAT_NOT_FOUND/);
    await expect(submit(bob, 'a1', [user('u1', 'hello')], 'regenerate-message')).rejects.toThrow(
      /CHAT_NOT_FOUND/,
    );
    expect(await store.list('a1')).toEqual(before);
    expect(await store.load('a1~1')).toBeUndefined();

    // Ada reaches all of it.
    const mine = await callAs(`${url}/api/chat/a1/messages`, 'ada-token');
    expect(mine.status).toBe(200);
    expect((JSON.parse(mine.text) as { messages: UIMessage[] }).messages).toHaveLength(2);
    const again = await submit(ada, 'a1', [user('u1', 'hello')], 'regenerate-message');
    expect(again.parts.at(-1)).toMatchObject({ type: 'text', text: 're: hello' });
    expect((await engine.getThread('a1~1'))!.state.principal).toBe('ada');
    // Bob's own chats are his, and a free chat id is anyone's to start.
    expect((await submit(bob, 'b1', [user('b1', 'hi')])).parts.at(-1)).toMatchObject({
      text: 're: hi',
    });
    const free = await callAs(`${url}/api/chat/free/messages`, 'bob-token');
    expect([free.status, JSON.parse(free.text)]).toEqual([200, { messages: [] }]);
    expect((await callAs(`${url}/api/chat/free/stream`, 'bob-token')).status).toBe(204);
  });

  it("answers another user's approval with 404: the payment waits for its owner, and runs once", async () => {
    const { ada, bob, engine } = await serve();
    const paid = payments.length;
    const asked = await submit(ada, 'a2', [user('u1', 'pay 7')]);
    await expect(submit(bob, 'a2', [user('u1', 'pay 7'), answerApprovals(asked)])).rejects.toThrow(
      /CHAT_NOT_FOUND/,
    );
    expect(payments.length).toBe(paid);
    expect((await engine.getThread('a2'))!.status).toBe('PAUSED');
    const done = await submit(ada, 'a2', [user('u1', 'pay 7'), answerApprovals(asked)]);
    expect(done.parts.at(-1)).toMatchObject({ type: 'text', text: 'Done: {"paid":7}' });
    expect(payments.slice(paid)).toEqual([7]);
  });

  it("answers another user's stream resume and stop with 404 while the answer runs on", async () => {
    const { url, ada, bob, engine } = await serve();
    const live = await send(ada, 'a3', [user('u1', 'slow please')]);
    const reader = live.getReader();
    for (;;) if ((await reader.read()).value?.type === 'text-delta') break;

    const stream = await callAs(`${url}/api/chat/a3/stream`, 'bob-token');
    expect([stream.status, stream.code]).toEqual([404, 'CHAT_NOT_FOUND']);
    await expect(bob.reconnectToStream({ chatId: 'a3' })).rejects.toThrow();
    const stop = await callAs(`${url}/api/chat/a3/stop`, 'bob-token', 'POST');
    expect([stop.status, stop.code]).toEqual([404, 'CHAT_NOT_FOUND']);
    // A second message of Bob's while it runs says nothing of it either.
    await expect(submit(bob, 'a3', [user('b1', 'hello?')])).rejects.toThrow(/CHAT_NOT_FOUND/);

    const replay = await ada.reconnectToStream({ chatId: 'a3' });
    gated!.open();
    await reader.cancel();
    const message = await lastMessage(replay as never);
    expect(message.parts.at(-1)).toMatchObject({ type: 'text', text: ANSWER, state: 'done' });
    expect((await engine.getThread('a3'))!.status).toBe('COMPLETED');
    expect((await callAs(`${url}/api/chat/a3/stream`, 'ada-token')).status).toBe(204);
    expect((await callAs(`${url}/api/chat/a3/stop`, 'ada-token', 'POST')).status).toBe(204);
  });

  it('treats a thread made before authorize (no principal) as no chat of anyone’s', async () => {
    const { url, ada, engine } = await serve();
    await engine.send('legacy', 'from before');
    const read = await callAs(`${url}/api/chat/legacy/messages`, 'ada-token');
    expect([read.status, read.code]).toEqual([404, 'CHAT_NOT_FOUND']);
    await expect(submit(ada, 'legacy', [user('u1', 'from before')])).rejects.toThrow(
      /CHAT_NOT_FOUND/,
    );
    expect((await engine.getThread('legacy'))!.conversation.getAllMessages()).toHaveLength(3);
  });
});
