import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { type Authorize, authorizeRequest, checkAuthorize } from './authorize.js';
import { errorAnswer } from './error-answer.js';
import { HttpRequestError } from './http-request-error.js';

const post = (headers: Record<string, string>) =>
  new Request('https://app.example.com/api/chat', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: '{"id":"c1"}',
  });

/** The answer `authorizeRequest` gives as a client would read it. */
async function answer(authorize: Authorize, request: Request) {
  try {
    return { principal: await authorizeRequest(authorize, request) };
  } catch (error) {
    return errorAnswer(error);
  }
}

describe('authorizeRequest', () => {
  it('names the caller from the headers; the body stays unread for the surface', async () => {
    const request = post({ authorization: 'Bearer ada-token' });
    let seen: Request | undefined;
    const principal = await authorizeRequest((r) => {
      seen = r;
      return r.headers.get('authorization') === 'Bearer ada-token' ? 'ada' : undefined;
    }, request);
    expect(principal).toBe('ada');
    expect(seen?.url).toBe('https://app.example.com/api/chat');
    expect(seen?.method).toBe('POST');
    expect(seen?.body).toBeNull();
    expect(await request.json()).toEqual({ id: 'c1' });
  });

  it('answers no caller with 401 and a challenge; a hook refusing with its own keeps it', async () => {
    expect(await answer(() => undefined, post({}))).toMatchObject({
      status: 401,
      headers: { 'www-authenticate': 'Bearer realm="skein"' },
      body: { error: { code: 'UNAUTHORIZED' } },
    });
    const expired: Authorize = async () => {
      throw HttpRequestError.unauthorized('the session expired', 'Cookie realm="app"');
    };
    expect(await answer(expired, post({}))).toMatchObject({
      status: 401,
      headers: { 'www-authenticate': 'Cookie realm="app"' },
      body: { error: { code: 'UNAUTHORIZED', message: 'the session expired' } },
    });
  });

  it('takes a principal the hook got wrong as the app’s mistake: a 500 that says nothing', async () => {
    for (const wrong of ['', 42, null, 'a\u0000b']) {
      const hook = (() => wrong) as unknown as Authorize;
      await expect(authorizeRequest(hook, post({}))).rejects.toMatchObject({
        code: 'AUTHORIZE_RESULT_INVALID',
        message: expect.stringMatching(
          /^authorize returned .*, which cannot name a caller: a principal/,
        ),
      });
      expect(await answer(hook, post({}))).toMatchObject({
        status: 500,
        body: { error: { code: 'INTERNAL_ERROR', message: 'internal error' } },
      });
    }
  });

  it('shows the hook a Node request as a fetch Request of its method, URL and headers', async () => {
    const seen: Request[] = [];
    const server = createServer((req: IncomingMessage, res) => {
      void authorizeRequest((r) => {
        seen.push(r);
        return r.headers.get('cookie')?.replace('session=', '');
      }, req).then(
        (principal) => res.end(principal),
        (error: unknown) => res.writeHead(errorAnswer(error).status).end(),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/chat?x=1`;
    const ada = await fetch(url, { method: 'POST', headers: { cookie: 'session=ada' }, body: 'x' });
    expect(await ada.text()).toBe('ada');
    expect((await fetch(url)).status).toBe(401);
    server.close();
    expect(seen[0]).toMatchObject({
      method: 'POST',
      url: expect.stringMatching(/\/api\/chat\?x=1$/),
    });
    expect(seen[0]!.body).toBeNull();
  });

  it('refuses an authorize option that is not a function', () => {
    expect(checkAuthorize(undefined)).toBeUndefined();
    expect(() => checkAuthorize('ada', 'options.authorize')).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'options.authorize' }),
    );
  });
});
