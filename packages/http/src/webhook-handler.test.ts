import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { InMemoryCheckpointStore, SkeinEngine, WorkflowBuilder } from '@skein/core';
import { afterEach, describe, expect, it } from 'vitest';
import { webhookHandler } from './webhook-handler.js';

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

function engineOn(store: InMemoryCheckpointStore, owner: string) {
  const engine = new SkeinEngine({ store, owner });
  engine.registerWorkflow(
    new WorkflowBuilder('ci', '1')
      .start()
      .waitForEvent('build', { event: 'ci', match: 'event.ok != null', variable: 'build' })
      .end('end', { output: 'vars.build.ok' })
      .chain('start', 'build', 'end')
      .build(),
  );
  return engine;
}

/** The app's public server with the handler mounted at /hooks/<token>, on 127.0.0.1. */
async function serve(engine: SkeinEngine, maxBodyBytes?: number): Promise<string> {
  const handle = webhookHandler(engine, maxBodyBytes === undefined ? {} : { maxBodyBytes });
  const server = createServer((req, res) => void handle(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
}

const post = (url: string, body: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('webhookHandler', () => {
  it('turns a call into the thread event once, however often it is called', async () => {
    const store = new InMemoryCheckpointStore();
    const engine = engineOn(store, 'app');
    await engine.run('ci', { threadId: 'deploy' });
    const token = await engine.createWebhook('deploy');
    expect(token).toMatch(/^[\w-]+\.[\w-]{43}$/);
    // Only a hash is stored.
    expect(JSON.stringify((await store.load('deploy'))!.state)).not.toContain(token.split('.')[1]);
    const base = await serve(engine);
    let completed = 0;
    const done = new Promise((resolve) =>
      engine.events.on('thread:completed', () => resolve(++completed)),
    );

    const [a, b] = await Promise.all([
      post(`${base}/${token}`, '{"ok":true}'),
      post(`${base}/${token}`, '{"ok":false}'),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses[0]).toBe(202);
    expect([404, 409]).toContain(statuses[1]);
    const late = await post(`${base}/${token}`, '{"ok":true}');
    expect([404, 409]).toContain(late.status);
    await done;
    const stored = (await store.load('deploy'))!.state;
    expect(stored.status).toBe('COMPLETED');
    expect(completed).toBe(1);
    engine.close();
  });

  it('works after a restart: the token made by one engine is honoured by the next', async () => {
    const store = new InMemoryCheckpointStore();
    const first = engineOn(store, 'first');
    await first.run('ci', { threadId: 'r' });
    const token = await first.createWebhook('r');
    first.close();
    const second = engineOn(store, 'second');
    const base = await serve(second);
    const res = await post(`${base}/${encodeURIComponent(token)}`, '{"ok":1}');
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ delivered: true, threadId: 'r' });
  });

  it('refuses wrong tokens, other methods, bad JSON, large bodies and unmatched payloads', async () => {
    const store = new InMemoryCheckpointStore();
    const engine = engineOn(store, 'app');
    await engine.run('ci', { threadId: 'guarded' });
    const token = await engine.createWebhook('guarded');
    const base = await serve(engine, 64);
    const [id, secret] = token.split('.') as [string, string];
    const forged = `${id}.${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    expect((await post(`${base}/${forged}`, '{"ok":1}')).status).toBe(404);
    expect((await post(`${base}/nonsense`, '{"ok":1}')).status).toBe(404);
    expect((await fetch(`${base}/${token}`)).status).toBe(405);
    expect((await post(`${base}/${token}`, '{"ok":')).status).toBe(400);
    const text = await fetch(`${base}/${token}`, { method: 'POST', body: 'ok=1' });
    expect(text.status).toBe(415);
    expect((await post(`${base}/${token}`, JSON.stringify({ ok: 'x'.repeat(100) }))).status).toBe(
      413,
    );
    expect((await post(`${base}/${token}`, '{"other":1}')).status).toBe(422);
    expect((await store.load('guarded'))!.state.status).toBe('WAITING');
    // A new webhook replaces the old one.
    const renewed = await engine.createWebhook('guarded');
    expect((await post(`${base}/${token}`, '{"ok":1}')).status).toBe(404);
    expect((await post(`${base}/${renewed}`, '{"ok":1}')).status).toBe(202);
    engine.close();
  });

  it('refuses a limit out of range', () => {
    const engine = engineOn(new InMemoryCheckpointStore(), 'app');
    expect(() => webhookHandler(engine, { maxBodyBytes: 0 })).toThrow(/maxBodyBytes must be/);
  });

  it('makes webhooks only for threads waiting for an event', async () => {
    const engine = engineOn(new InMemoryCheckpointStore(), 'app');
    await expect(engine.createWebhook('missing')).rejects.toMatchObject({
      code: 'CHECKPOINT_NOT_FOUND',
    });
    const { thread } = await engine.run('ci');
    await engine.signal('ci', { ok: true });
    await expect(engine.createWebhook(thread.threadId)).rejects.toMatchObject({
      code: 'THREAD_STATE',
    });
    engine.close();
  });

  it('resolves when a client hangs up mid-body: an unhandled rejection would end the process', async () => {
    const engine = engineOn(new InMemoryCheckpointStore(), 'app');
    const handle = webhookHandler(engine);
    let handled: Promise<void> | undefined;
    let arrived!: () => void;
    const requested = new Promise<void>((resolve) => (arrived = resolve));
    const server = createServer((req, res) => {
      handled = handle(req, res);
      arrived();
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(
      `POST /hooks/a.b HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: 5000\r\n\r\n{"ok":tr`,
    );
    await requested;
    socket.destroy();
    await expect(handled).resolves.toBeUndefined();
    engine.close();
  });

  it('answers a client’s mistakes with 4xx, never 5xx (senders retry those)', async () => {
    const engine = engineOn(new InMemoryCheckpointStore(), 'app');
    await engine.run('ci', { threadId: 'deep' });
    const token = await engine.createWebhook('deep');
    const base = await serve(engine);
    const nested = await post(`${base}/${token}`, `${'['.repeat(300)}${']'.repeat(300)}`);
    expect(nested.status).toBe(400);
    expect(await nested.json()).toEqual({ error: 'INVALID_ARGUMENT' });
    const malformed = await post(`${base}/%E0%A4%A`, '{"ok":1}');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ error: 'INVALID_PATH' });
    engine.close();
  });
});
