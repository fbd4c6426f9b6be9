import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UIMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { askAs, hello } from './ask-as.js';
import { chatApp, sessionCookie } from './express.js';
import { demoEngine } from './hono.js';

const SECRET = 'test secret';
let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function start() {
  const engine = demoEngine();
  const app = chatApp(engine, SECRET);
  const url = await new Promise<string>((resolve) => {
    server = app.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server!.address() as AddressInfo).port}`),
    );
  });
  return { engine, url };
}

/** Signs in as `user` the way a browser would: the session cookie the server sets. */
async function login(url: string, user: string): Promise<string> {
  const response = await fetch(`${url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user }),
  });
  expect(response.status).toBe(204);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

describe('the chat handler mounted in Express (examples/express.ts)', () => {
  it("serves each signed-in user's chats to that user only: 404 to the other, 401 to no one", async () => {
    const { engine, url } = await start();
    const adaCookie = await login(url, 'ada');
    expect(adaCookie).toBe(`session=${sessionCookie('ada', SECRET)}`);
    const answer = await askAs(`${url}/api/chat`, { cookie: adaCookie }, 'ada-chat');
    expect(answer?.parts.at(-1)).toMatchObject({ type: 'text', text: 're: hello' });
    expect((await engine.getThread('ada-chat'))!.state.principal).toBe('ada');

    const bob = { cookie: await login(url, 'bob') };
    const read = await fetch(`${url}/api/chat/ada-chat/messages`, { headers: bob });
    expect([read.status, ((await read.json()) as { error: { code: string } }).error.code]).toEqual([
      404,
      'CHAT_NOT_FOUND',
    ]);
    const body = JSON.stringify({ id: 'ada-chat', messages: [hello], trigger: 'submit-message' });
    const json = { 'content-type': 'application/json' };
    const take = await fetch(`${url}/api/chat`, {
      method: 'POST',
      headers: { ...json, ...bob },
      body,
    });
    expect(take.status).toBe(404);
    const stop = await fetch(`${url}/api/chat/ada-chat/stop`, { method: 'POST', headers: bob });
    expect(stop.status).toBe(404);

    // No cookie, or Ada's name with a signature that is not the server's: no one.
    for (const cookie of [
      undefined,
      'session=ada.forged',
      `session=${sessionCookie('ada', 'other')}`,
    ]) {
      const refused = await fetch(`${url}/api/chat/ada-chat/messages`, {
        headers: cookie === undefined ? {} : { cookie },
      });
      expect([refused.status, refused.headers.get('www-authenticate')]).toEqual([
        401,
        'Bearer realm="skein"',
      ]);
    }
    const mine = await fetch(`${url}/api/chat/ada-chat/messages`, {
      headers: { cookie: adaCookie },
    });
    expect(((await mine.json()) as { messages: UIMessage[] }).messages).toHaveLength(2);
  });

  it("refuses a write from another site's page even with the user's cookie (403)", async () => {
    const { url } = await start();
    const cookie = await login(url, 'ada');
    const response = await fetch(`${url}/api/chat`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie,
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      },
      body: JSON.stringify({ id: 'c', messages: [hello], trigger: 'submit-message' }),
    });
    expect(response.status).toBe(403);
  });
});
