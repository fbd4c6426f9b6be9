import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureEngine, runFixtureThread } from '../test-support/fixture-thread.js';
import { rawRequest } from '../test-support/raw-request.js';
import { tempStore } from '../test-support/temp-store.js';
import { writeTinyPage } from '../test-support/tiny-page.js';
import type { RunningInspector } from './inspector-options.js';
import { serveInspector } from './start-inspector.js';

const temp = tempStore();
let inspector: RunningInspector;

function directives(policy: string | undefined): Map<string, string> {
  return new Map(
    (policy ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0] !== '')
      .map(([name, ...values]) => [name!, values.join(' ')]),
  );
}

beforeAll(async () => {
  await runFixtureThread(createFixtureEngine(temp.store), 'trip-1');
  inspector = await serveInspector({ store: temp.store }, writeTinyPage(temp.dir));
});

afterAll(async () => {
  await inspector.close();
  temp.dispose();
});

describe('every response', () => {
  it('forbids framing, sniffing, referrers and foreign scripts, whatever its status', async () => {
    const own = new URL(inspector.url).origin;
    const json = { 'content-type': 'application/json' };
    const requests: [string, string, Record<string, string>, number][] = [
      ['GET', '/', {}, 200],
      ['GET', '/assets/app.js', {}, 200],
      ['HEAD', '/', {}, 200],
      ['GET', '/api/info', {}, 200],
      ['GET', '/api/threads', {}, 200],
      ['GET', '/api/threads/trip-1', {}, 200],
      ['GET', '/api/threads/trip-1/events', {}, 200],
      ['GET', '/api/threads/trip-1/messages/0/parts/0', {}, 404],
      ['GET', '/api/threads/nope', {}, 404],
      ['GET', '/api/nothing', {}, 404],
      ['PUT', '/api/threads', { origin: own, ...json }, 405],
      ['POST', '/api/threads/trip-1/resume', { origin: own, ...json }, 403],
      ['POST', '/api/threads/trip-1/resume', { origin: 'http://evil.example', ...json }, 403],
      ['GET', '/api/threads', { host: 'evil.example' }, 421],
    ];
    for (const [method, path, headers, status] of requests) {
      const response = await rawRequest(new URL(path, inspector.url).href, {
        method,
        headers,
        ...(method === 'GET' || method === 'HEAD' ? {} : { body: '{"input":"yes"}' }),
      });
      const where = `${method} ${path} ${JSON.stringify(headers)}`;
      expect([where, response.status]).toEqual([where, status]);
      const csp = directives(response.headers['content-security-policy'] as string | undefined);
      expect([where, Object.fromEntries(csp)]).toEqual([
        where,
        {
          'default-src': "'self'",
          'script-src': "'self'",
          'img-src': "'self'",
          'media-src': "'self'",
          'object-src': "'none'",
          'base-uri': "'none'",
          'form-action': "'self'",
          'frame-ancestors': "'none'",
        },
      ]);
      expect([
        where,
        response.headers['x-frame-options'],
        response.headers['x-content-type-options'],
        response.headers['referrer-policy'],
        response.headers['cross-origin-resource-policy'],
        response.headers['x-dns-prefetch-control'],
      ]).toEqual([where, 'DENY', 'nosniff', 'no-referrer', 'same-origin', 'off']);
    }
  });
});
