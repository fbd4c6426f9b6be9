import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NextServer, startNext } from './test-support/start-next.js';

// The app as `next build` made it, started with `next start` and talked to over HTTP, as Ada
// and Bob (the demo tokens of src/lib/users.ts) and as pages of other sites.
const PUBLIC_ORIGIN = 'https://chat.example.com';
let server: NextServer;
let url: string;
beforeAll(async () => {
  server = await startNext({ PUBLIC_ORIGIN });
  url = server.url;
});
afterAll(() => server?.close());

const ADA = { authorization: 'Bearer ada-token' };
const BOB = { authorization: 'Bearer bob-token' };
const JSON_BODY = { 'content-type': 'application/json' };

const userMessage = (id: string, text: string): UIMessage => ({
  id,
  role: 'user',
  parts: [{ type: 'text', text }],
});

/** Sends `messages` as useChat does in Ada's (or Bob's) browser; the answer as useChat builds it. */
async function submit(headers: Record<string, string>, chatId: string, messages: UIMessage[]) {
  const transport = new DefaultChatTransport<UIMessage>({ api: `${url}/api/chat`, headers });
  const stream = await transport.sendMessages({
    chatId,
    messages,
    trigger: 'submit-message',
    messageId: undefined,
    abortSignal: undefined,
  });
  const last = messages.at(-1)!;
  let answer: UIMessage | undefined;
  for await (answer of readUIMessageStream({
    stream,
    ...(last.role === 'assistant' ? { message: last } : {}),
  }));
  return answer!;
}

const post = (headers: Record<string, string>, body: unknown) =>
  fetch(`${url}/api/chat`, {
    method: 'POST',
    headers: { ...JSON_BODY, ...headers },
    body: JSON.stringify(body),
  });

const errorOf = async (response: Response) => [
  response.status,
  ((await response.json()) as { error: { code: string } }).error.code,
];

describe('the chat handler in a Next.js App Router route (next build, next start)', () => {
  it('refuses a request that names no user: 401 with WWW-Authenticate', async () => {
    const hello = { id: 'no-one', messages: [userMessage('u1', 'hi')], trigger: 'submit-message' };
    const callers: Record<string, string>[] = [
      {},
      { authorization: 'Bearer stolen' },
      { authorization: 'Bearer constructor' },
    ];
    for (const headers of callers) {
      const refused = await post(headers, hello);
      expect([refused.status, refused.headers.get('www-authenticate')]).toEqual([
        401,
        'Bearer realm="skein"',
      ]);
      expect((await errorOf(refused))[1]).toBe('UNAUTHORIZED');
    }
    const read = await fetch(`${url}/api/chat/no-one/messages`);
    expect(read.status).toBe(401);
    await read.body?.cancel();
  });

  it("streams Ada's answer to her, and her chat is no one else's: 404 to Bob on every route", async () => {
    const question = userMessage('u1', 'pay 5');
    const asked = await submit(ADA, 'ada-chat', [question]);
    expect(asked.parts.at(-1)).toMatchObject({
      type: 'tool-pay',
      state: 'approval-requested',
      input: { amount: 5 },
    });

    // Bob knows the chat id. He cannot read it, follow it, stop it, write to it or approve its
    // payment: to him it is a chat that does not exist.
    const approved: UIMessage = {
      ...asked,
      parts: asked.parts.map((p) =>
        p.type === 'tool-pay' && p.state === 'approval-requested'
          ? { ...p, state: 'approval-responded', approval: { id: p.approval.id, approved: true } }
          : p,
      ),
    };
    const bobs = [
      await fetch(`${url}/api/chat/ada-chat/messages`, { headers: BOB }),
      await fetch(`${url}/api/chat/ada-chat/stream`, { headers: BOB }),
      await fetch(`${url}/api/chat/ada-chat/stop`, { method: 'POST', headers: BOB }),
      await post(BOB, { id: 'ada-chat', messages: [question], trigger: 'submit-message' }),
      await post(BOB, {
        id: 'ada-chat',
        messages: [question, approved],
        trigger: 'submit-message',
      }),
    ];
    for (const answer of bobs) expect(await errorOf(answer)).toEqual([404, 'CHAT_NOT_FOUND']);

    // Ada approves, and the payment runs once, for her.
    const answered = await submit(ADA, 'ada-chat', [question, approved]);
    expect(answered.parts.at(-1)).toMatchObject({ type: 'text', text: 'Done: {"paid":5}' });
    const mine = await fetch(`${url}/api/chat/ada-chat/messages`, { headers: ADA });
    const { messages } = (await mine.json()) as { messages: UIMessage[] };
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);

    const next = await submit(ADA, 'ada-chat', [...messages, userMessage('u2', 'thanks')]);
    expect(next.parts.at(-1)).toMatchObject({ type: 'text', text: 're: thanks' });
  });

  it("takes writes from the app's own origin and the public one it names, and refuses other sites' (403)", async () => {
    const write = (chatId: string, headers: Record<string, string>) =>
      post(
        { ...ADA, ...headers },
        { id: chatId, messages: [userMessage('u1', 'hello')], trigger: 'submit-message' },
      );
    const foreign = await write('from-evil', {
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    });
    expect(await errorOf(foreign)).toEqual([403, 'CROSS_ORIGIN_REFUSED']);
    // The app's https origin, as a page served through a proxy that ends TLS sends it.
    const publicPage = await write('from-public', {
      origin: PUBLIC_ORIGIN,
      'sec-fetch-site': 'same-origin',
    });
    expect([publicPage.status, publicPage.headers.get('content-type')]).toEqual([
      200,
      'text/event-stream',
    ]);
    expect(await publicPage.text()).toContain('"delta":"hell"');
    const ownPage = await write('from-own', { origin: url, 'sec-fetch-site': 'same-origin' });
    expect(ownPage.status).toBe(200);
    await ownPage.body?.cancel();
    // https on Next's own host is another origin than the http one it serves.
    const otherScheme = await write('from-https', { origin: url.replace('http:', 'https:') });
    expect(await errorOf(otherScheme)).toEqual([403, 'CROSS_ORIGIN_REFUSED']);
  });
});
