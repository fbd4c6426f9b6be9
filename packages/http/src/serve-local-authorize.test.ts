import { request } from 'node:http';
import { chatWorkflow, InMemoryCheckpointStore, SkeinEngine } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { bearerToken } from './bearer-token.js';
import { jsonObject } from './json-body.js';
import { type LocalServer, serveLocal } from './serve-local.js';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TOKENS: Record<string, string> = { 'ada-token': 'ada', 'bob-token': 'bob' };

/** A thread API on serveLocal: each caller reaches its own threads through its view. */
async function start() {
  const engine = new SkeinEngine({
    llm: new ScriptedLLMClient((r) => ({ content: `re: ${r.messages.at(-1)?.content}` })),
    store: new InMemoryCheckpointStore(),
  });
  engine.registerWorkflow(chatWorkflow());
  server = await serveLocal(
    async (req, res) => {
      const [threads, id] = req.path;
      if (threads !== 'threads' || !id) return;
      const mine = engine.forPrincipal(req.principal!);
      if (req.method === 'GET') {
        const thread = await mine.loadThread(id); // 404 unless the caller's
        res
          .writeHead(200)
          .end(JSON.stringify(thread.conversation.getMessages().map((m) => m.content)));
        return;
      }
      const { content } = jsonObject(await req.json());
      const { result } = await mine.send(id, content as string);
      res.writeHead(200).end(JSON.stringify(result.output));
    },
    { authorize: (request) => TOKENS[bearerToken(request.headers.get('authorization')) ?? ''] },
  );
  return server.url;
}

const as = (token: string | undefined, init: RequestInit = {}) => ({
  ...init,
  headers: {
    'content-type': 'application/json',
    ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
  },
});

describe('serveLocal with authorize: two users', () => {
  it('names each caller; the thread of one is 404 to the other, and no caller is 401', async () => {
    const url = await start();
    const sent = await fetch(
      `${url}/threads/t1`,
      as('ada-token', { method: 'POST', body: '{"content":"hi"}' }),
    );
    expect(await sent.json()).toBe('re: hi');
    expect((await fetch(`${url}/threads/t1`, as('ada-token'))).status).toBe(200);

    const peek = await fetch(`${url}/threads/t1`, as('bob-token'));
    expect(peek.status).toBe(404);
    expect(await peek.json()).toEqual({
      error: { code: 'CHECKPOINT_NOT_FOUND', message: 'Thread t1 has no checkpoint' },
    });
    const take = await fetch(
      `${url}/threads/t1`,
      as('bob-token', { method: 'POST', body: '{"content":"mine"}' }),
    );
    expect(take.status).toBe(404);
    // Bob's 404 for Ada's thread is the one for a thread nobody has.
    const unknown = await fetch(`${url}/threads/none`, as('bob-token'));
    expect(await unknown.json()).toEqual({
      error: { code: 'CHECKPOINT_NOT_FOUND', message: 'Thread none has no checkpoint' },
    });

    for (const token of [undefined, 'stolen-token']) {
      const refused = await fetch(`${url}/threads/t1`, as(token));
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="skein"');
      expect(await refused.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    }
    // Ada's thread is as she left it.
    const read = await fetch(`${url}/threads/t1`, as('ada-token'));
    expect(await read.json()).toEqual(['hi', 're: hi']);
  });

  it('answers a method no fetch Request can carry with 405, before the hook', async () => {
    const url = await start();
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${url}/threads/t1`, { method: 'TRACE' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(405);
  });
});
