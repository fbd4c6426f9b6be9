import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import type { UIMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { askAs, hello } from './ask-as.js';
import { chatApp, demoEngine } from './hono.js';

let server: ServerType | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

const TOKENS: Record<string, string> = { 'ada-token': 'ada', 'bob-token': 'bob' };

async function start() {
  const engine = demoEngine();
  const app = chatApp(engine, (token) => TOKENS[token]);
  const url = await new Promise<string>((resolve) => {
    server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) =>
      resolve(`http://127.0.0.1:${info.port}`),
    );
  });
  return { engine, url };
}

const post = (url: string, headers: Record<string, string>) =>
  fetch(`${url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ id: 'ada-chat', messages: [hello], trigger: 'submit-message' }),
  });

describe('the chat handler mounted in Hono (examples/hono.ts)', () => {
  it("serves each user's chats to that user only: 404 to the other, 401 to no one", async () => {
    const { engine, url } = await start();
    // Ada, through the ai package's own transport, as useChat in her browser.
    const answer = await askAs(
      `${url}/api/chat`,
      { authorization: 'Bearer ada-token' },
      'ada-chat',
    );
    expect(answer?.parts.at(-1)).toMatchObject({ type: 'text', text: 're: hello' });
    expect((await engine.getThread('ada-chat'))!.state.principal).toBe('ada');

    // Bob, with plain fetch: Ada's chat is no chat of his.
    const bob = { authorization: 'Bearer bob-token' };
    const read = await fetch(`${url}/api/chat/ada-chat/messages`, { headers: bob });
    expect([read.status, await read.json()]).toEqual([
      404,
      { error: { code: 'CHAT_NOT_FOUND', message: 'Chat ada-chat has no stored thread' } },
    ]);
    expect((await post(url, bob)).status).toBe(404);
    expect(
      (await fetch(`${url}/api/chat/ada-chat/stop`, { method: 'POST', headers: bob })).status,
    ).toBe(404);
    const none = await post(url, {});
    expect([none.status, none.headers.get('www-authenticate')]).toEqual([
      401,
      'Bearer realm="skein"',
    ]);
    expect((await post(url, { authorization: 'Bearer stolen' })).status).toBe(401);

    // Ada reads hers.
    const mine = await fetch(`${url}/api/chat/ada-chat/messages`, {
      headers: { authorization: 'Bearer ada-token' },
    });
    expect(((await mine.json()) as { messages: UIMessage[] }).messages).toHaveLength(2);
  });

  it("takes a write from the page's own origin, as a browser sends it, and refuses another site's", async () => {
    const { url } = await start();
    const ada = { authorization: 'Bearer ada-token' };
    const own = await post(url, { ...ada, origin: url, 'sec-fetch-site': 'same-origin' });
    expect(own.status).toBe(200);
    await own.body?.cancel();
    const foreign = await post(url, {
      ...ada,
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    });
    expect([
      foreign.status,
      ((await foreign.json()) as { error: { code: string } }).error.code,
    ]).toEqual([403, 'CROSS_ORIGIN_REFUSED']);
  });
});
