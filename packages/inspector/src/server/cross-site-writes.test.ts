import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../test-support/raw-request.js';
import {
  type ResumableInspector,
  startResumableInspector,
} from '../test-support/resumable-inspector.js';

let subject: ResumableInspector;
let own: string;

function resume(threadId: string, headers: Record<string, string>, body = '{"input":true}') {
  return rawRequest(new URL(`/api/threads/${threadId}/resume`, subject.inspector.url).href, {
    method: 'POST',
    headers,
    body,
  });
}

async function statusOf(threadId: string): Promise<string | undefined> {
  return (await subject.store.load(threadId))?.state.status;
}

beforeAll(async () => {
  subject = await startResumableInspector();
  own = new URL(subject.inspector.url).origin;
  await subject.pausedPayment('pay-1');
});

afterAll(() => subject.dispose());

describe('a state-changing request from another site', () => {
  it('is refused (403) when its Origin is foreign, even as text/plain, and nothing runs', async () => {
    const forged = await resume('pay-1', {
      origin: 'http://evil.example',
      'content-type': 'text/plain',
    });
    expect(forged.status).toBe(403);
    expect(JSON.parse(forged.body).error.code).toBe('CROSS_ORIGIN_REFUSED');
    const asJson = await resume('pay-1', {
      origin: 'http://evil.example',
      'content-type': 'application/json',
    });
    expect(asJson.status).toBe(403);
    expect(await statusOf('pay-1')).toBe('PAUSED');
    expect(subject.charges()).toBe(0);
  });

  it('is refused when a JS-free form posts it (Sec-Fetch-Site: cross-site, no Origin kept)', async () => {
    const form = await resume(
      'pay-1',
      {
        'content-type': 'text/plain',
        'sec-fetch-site': 'cross-site',
        'sec-fetch-mode': 'navigate',
      },
      '{"input":true,"x":"=1"}',
    );
    expect(form.status).toBe(403);
    expect(await statusOf('pay-1')).toBe('PAUSED');
    expect(subject.charges()).toBe(0);
  });

  it('is refused from an opaque origin and from another port of the same host', async () => {
    const port = Number(new URL(own).port);
    for (const origin of [
      'null',
      `http://127.0.0.1:${port === 1 ? 2 : port - 1}`,
      `https://127.0.0.1:${port}`,
    ]) {
      const response = await resume('pay-1', { origin, 'content-type': 'application/json' });
      expect([origin, response.status]).toEqual([origin, 403]);
    }
    const sameSite = await resume('pay-1', {
      'sec-fetch-site': 'same-site',
      'content-type': 'application/json',
    });
    expect(sameSite.status).toBe(403);
    expect(await statusOf('pay-1')).toBe('PAUSED');
  });

  it('is refused on every route and with every method but GET and HEAD', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
      for (const path of [
        '/',
        '/api/info',
        '/api/threads',
        '/api/threads/pay-1',
        '/api/threads/pay-1/events',
        '/api/threads/pay-1/resume',
        '/api/threads/pay-1/history',
        '/api/threads/pay-1/fork',
      ]) {
        const response = await rawRequest(new URL(path, subject.inspector.url).href, {
          method,
          headers: { origin: 'http://evil.example', 'content-type': 'application/json' },
          body: '{"input":true}',
        });
        expect(`${method} ${path} ${response.status}`).toBe(`${method} ${path} 403`);
      }
    expect(await statusOf('pay-1')).toBe('PAUSED');
    expect(subject.charges()).toBe(0);
  });
});

describe('a state-changing request from the page itself', () => {
  it('must carry JSON: any other body type is refused with 415 and nothing runs', async () => {
    for (const type of [
      undefined,
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonp',
      'text/json',
    ]) {
      const headers: Record<string, string> = { origin: own };
      if (type !== undefined) headers['content-type'] = type;
      const response = await resume('pay-1', headers);
      expect([type, response.status]).toEqual([type, 415]);
      expect(JSON.parse(response.body).error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    expect(await statusOf('pay-1')).toBe('PAUSED');
    expect(subject.charges()).toBe(0);
  });

  it('is refused with 405 for a method no route takes, 404 for a path no route has', async () => {
    const headers = { origin: own, 'content-type': 'application/json' };
    const put = await rawRequest(new URL('/api/threads/pay-1', subject.inspector.url).href, {
      method: 'PUT',
      headers,
      body: '{}',
    });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, HEAD');
    const getResume = await rawRequest(
      new URL('/api/threads/pay-1/resume', subject.inspector.url).href,
    );
    expect(getResume.status).toBe(405);
    expect(getResume.headers.allow).toBe('POST');
    const unknown = await rawRequest(new URL('/api/nothing', subject.inspector.url).href, {
      method: 'POST',
      headers,
      body: '{}',
    });
    expect(unknown.status).toBe(404);
  });

  it('is refused with 400 when its JSON is malformed or has no input', async () => {
    const headers = { origin: own, 'content-type': 'application/json' };
    for (const body of ['{"input":', '[true]', '"yes"', '{}', ''])
      expect([body, (await resume('pay-1', headers, body)).status]).toEqual([body, 400]);
    expect(await statusOf('pay-1')).toBe('PAUSED');
  });

  it('resumes the thread when same-origin JSON (with or without Origin, charset allowed)', async () => {
    const completed = subject.whenFinished('pay-1');
    const accepted = await resume('pay-1', {
      origin: own,
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/json; charset=utf-8',
    });
    expect(accepted.status).toBe(202);
    expect(await completed).toBe('COMPLETED');
    expect(subject.charges()).toBe(1);
    await subject.pausedPayment('pay-2');
    const declined = subject.whenFinished('pay-2');
    const noOrigin = await resume(
      'pay-2',
      { 'content-type': 'Application/JSON' },
      '{"input":false}',
    );
    expect(noOrigin.status).toBe(202);
    expect(await declined).toBe('COMPLETED');
    expect(subject.charges()).toBe(1);
  });
});
