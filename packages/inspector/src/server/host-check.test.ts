import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureEngine, runFixtureThread } from '../test-support/fixture-thread.js';
import { rawRequest } from '../test-support/raw-request.js';
import { tempStore } from '../test-support/temp-store.js';
import { writeTinyPage } from '../test-support/tiny-page.js';
import type { RunningInspector } from './inspector-options.js';
import { serveInspector } from './start-inspector.js';

const temp = tempStore();
let inspector: RunningInspector;

const ROUTES: readonly [method: string, path: string][] = [
  ['GET', '/'],
  ['GET', '/index.html'],
  ['GET', '/assets/app.js'],
  ['GET', '/#/thread/trip-1'],
  ['HEAD', '/api/threads'],
  ['GET', '/api/threads'],
  ['GET', '/api/threads?status=paused'],
  ['GET', '/api/threads/trip-1'],
  ['GET', '/api/threads/trip-1/events'],
  ['GET', '/api/info'],
  ['GET', '/api/nothing'],
  ['POST', '/api/threads/trip-1/resume'],
];

function send(method: string, path: string, host: string) {
  return rawRequest(new URL(path, inspector.url).href, {
    method,
    headers: { host, 'content-type': 'application/json' },
    ...(method === 'POST' ? { body: '{"input":"yes"}' } : {}),
  });
}

beforeAll(async () => {
  await runFixtureThread(createFixtureEngine(temp.store), 'trip-1');
  inspector = await serveInspector({ store: temp.store }, writeTinyPage(temp.dir));
});

afterAll(async () => {
  await inspector.close();
  temp.dispose();
});

describe('the Host header (DNS rebinding)', () => {
  it('answers 421 to a name the server is not bound to, on every route, assets included', async () => {
    for (const [method, path] of ROUTES) {
      const response = await send(method, path, 'evil.example');
      expect(`${method} ${path} ${response.status}`).toBe(`${method} ${path} 421`);
    }
    const list = await send('GET', '/api/threads', 'evil.example');
    expect(list.body).not.toContain('trip-1');
    expect(JSON.parse(list.body).error.code).toBe('HOST_NOT_ALLOWED');
  });

  it('refuses a loopback name with another port, no port, or a look-alike', async () => {
    const port = inspector.port;
    for (const host of [
      `evil.example:${port}`,
      `127.0.0.1:${port + 1}`,
      '127.0.0.1',
      'localhost',
      `localhost.:${port}`,
      `127.0.0.2:${port}`,
      `0.0.0.0:${port}`,
      `127.0.0.1.evil.example:${port}`,
    ]) {
      const response = await send('GET', '/api/threads', host);
      expect([host, response.status]).toEqual([host, 421]);
    }
    // Names a URL would rewrite (case, IPv6 forms) are refused by @hono/node-server itself, with
    // 400, before the inspector sees them; a browser never sends them.
    for (const host of [`[::ffff:127.0.0.1]:${port}`, `LocalHost:${port}`]) {
      const response = await send('GET', '/api/threads', host);
      expect([host, response.status]).toEqual([host, 400]);
    }
  });

  it('refuses an absolute-form target naming another host, whatever the Host header says', async () => {
    const port = inspector.port;
    const status = (target: string, method = 'GET') =>
      new Promise<number>((resolve, reject) => {
        const req = request({
          host: '127.0.0.1',
          port,
          method,
          path: target,
          headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/json' },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end(method === 'POST' ? '{"input":"yes"}' : undefined);
      });
    for (const [method, path] of ROUTES) {
      const answer = await status(`http://evil.example:${port}${path}`, method);
      expect(`${method} ${path} ${answer}`).toBe(`${method} ${path} 421`);
    }
    expect(await status(`http://127.0.0.1:${port}/api/threads`)).toBe(200);
  });

  it('serves the loopback names with the server port: 127.0.0.1, localhost, [::1]', async () => {
    const port = inspector.port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`])
      for (const [method, path] of ROUTES.filter(([m]) => m !== 'POST')) {
        const response = await send(method, path, host);
        const expected = path === '/api/nothing' ? 404 : 200;
        expect(`${host} ${method} ${path} ${response.status}`).toBe(
          `${host} ${method} ${path} ${expected}`,
        );
      }
  });
});
