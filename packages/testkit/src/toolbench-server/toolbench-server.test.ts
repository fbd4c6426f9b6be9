import { InvalidArgumentError } from '@skein/spec';
import { afterEach, describe, expect, it } from 'vitest';
import { startToolBenchServer } from './toolbench-server.js';
import type { ToolBenchServer } from './types.js';

const servers: ToolBenchServer[] = [];
async function start(
  options: Parameters<typeof startToolBenchServer>[0] = {},
): Promise<ToolBenchServer> {
  const server = await startToolBenchServer(options);
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const body = {
  category: 'Data',
  tool_name: 'keyword_analysis',
  api_name: 'querykeywords',
  tool_input: '{"q": "cakes"}',
  strip: 'truncate',
  toolbench_key: 'k',
};

async function post(url: string, payload: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', toolbench_key: 'k', ...headers },
    body: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
  return { status: response.status, text: await response.text() };
}

describe('startToolBenchServer', () => {
  it('listens on 127.0.0.1 with an ephemeral port and answers /virtual with canned replies by api_name', async () => {
    const server = await start({ responses: { querykeywords: { response: '<b>cakes</b>' } } });
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/virtual`);
    expect(server.port).toBeGreaterThan(0);
    expect(await post(server.url, body)).toEqual({
      status: 200,
      text: '{"error":"","response":"<b>cakes</b>"}',
    });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      path: '/virtual',
      key: 'k',
      body,
      toolInput: { q: 'cakes' },
      status: 200,
    });
  });

  it('reads api_name as the virtual server does: the full function name and the API part alone both work', async () => {
    const server = await start({ responses: { querykeywords: { response: 'found' } } });
    for (const apiName of [
      'querykeywords_for_keyword_analysis',
      'querykeywords',
      'QueryKeywords',
      'QUERYKEYWORDS_for_keyword_analysis',
    ])
      expect((await post(server.url, { ...body, api_name: apiName })).text).toBe(
        '{"error":"","response":"found"}',
      );
    expect(server.requests.map((r) => r.apiName)).toEqual([
      'querykeywords',
      'querykeywords',
      'querykeywords',
      'querykeywords',
    ]);
    // Reserved words are renamed and a name starting with a digit gets get_, as on the server;
    // CJK ideographs and a literal ^ are kept.
    const named = await start({
      responses: {
        is_id: { response: 'id' },
        get_2fa_code: { response: '2fa' },
        '中^x': { response: 'cjk' },
      },
    });
    const reply = async (api_name: string) => (await post(named.url, { ...body, api_name })).text;
    expect(await reply('is_id_for_keyword_analysis')).toBe('{"error":"","response":"id"}');
    expect(await reply('id')).toBe('{"error":"","response":"id"}');
    expect(await reply('2FA code')).toBe('{"error":"","response":"2fa"}');
    expect(await reply('é中^x_for_keyword_analysis')).toBe('{"error":"","response":"cjk"}');
    expect(named.requests.map((r) => r.apiName)).toEqual([
      'is_id',
      'is_id',
      'get_2fa_code',
      '中^x',
    ]);
    // A name only known as received still answers (canned replies keyed by the exact name).
    const exact = await start({ responses: { 'Odd Name!': { response: 'exact' } } });
    expect((await post(exact.url, { ...body, api_name: 'Odd Name!' })).text).toBe(
      '{"error":"","response":"exact"}',
    );
  });

  it('generates replies with a function (per API or for all calls)', async () => {
    const server = await start({
      responses: { querykeywords: (call) => ({ response: { echo: call.toolInput } }) },
    });
    expect((await post(server.url, body)).text).toBe(
      '{"error":"","response":{"echo":{"q":"cakes"}}}',
    );
    const all = await start({ responses: async (call) => ({ error: `no ${call.body.api_name}` }) });
    expect((await post(all.url, body)).text).toBe('{"error":"no querykeywords","response":""}');
  });

  it('reads tool_input as the virtual server does: "" is {}, objects are kept, bad JSON is a parse error reply', async () => {
    const server = await start({
      responses: { querykeywords: (call) => ({ response: call.toolInput }) },
    });
    expect((await post(server.url, { ...body, tool_input: '' })).text).toBe(
      '{"error":"","response":{}}',
    );
    expect((await post(server.url, { ...body, tool_input: { q: 1 } })).text).toBe(
      '{"error":"","response":{"q":1}}',
    );
    expect((await post(server.url, { ...body, tool_input: '{"q": 1} extra' })).text).toBe(
      '{"error":"Tool input parse error...\\n","response":""}',
    );
  });

  it('gives the last-resort reply for an API it has no response for', async () => {
    const server = await start();
    expect((await post(server.url, body)).text).toBe(
      '{"error":"Failed to generate fake response","response":""}',
    );
  });

  it('answers 422 listing every missing or mistyped field, 404 and 405 like FastAPI', async () => {
    const server = await start();
    const missing = await post(server.url, { category: 'Data', tool_name: 1 });
    expect(missing.status).toBe(422);
    const detail = (JSON.parse(missing.text) as { detail: { loc: string[] }[] }).detail.map(
      (d) => d.loc[1],
    );
    expect(detail).toEqual(['tool_name', 'api_name', 'tool_input', 'strip', 'toolbench_key']);
    expect((await post(server.url, 'not json')).status).toBe(422);
    expect((await post(server.url.replace('/virtual', '/other'), body)).status).toBe(404);
    expect((await fetch(server.url)).status).toBe(405);
    expect(server.requests.map((r) => r.status)).toEqual([422, 422, 404, 405]);
  });

  it('switches failure modes on and off: HTTP error, malformed body, delay', async () => {
    const server = await start({ responses: { querykeywords: { response: 'ok' } } });
    server.setFailure({ kind: 'http-error' }, { times: 1 });
    expect((await post(server.url, body)).status).toBe(500);
    expect((await post(server.url, body)).text).toBe('{"error":"","response":"ok"}');
    server.setFailure({ kind: 'malformed', body: 'oops' });
    expect(await post(server.url, body)).toEqual({ status: 200, text: 'oops' });
    expect(await post(server.url, body)).toEqual({ status: 200, text: 'oops' });
    server.setFailure({ kind: 'delay', ms: 5_000 });
    await expect(
      fetch(server.url, {
        method: 'POST',
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(50),
      }),
    ).rejects.toThrow();
    server.setFailure(undefined);
    expect((await post(server.url, body)).status).toBe(200);
  });

  it('answers after the delay when the client waits', async () => {
    const server = await start({
      failure: { kind: 'delay', ms: 30 },
      responses: { querykeywords: { response: 'late' } },
    });
    expect((await post(server.url, body)).text).toBe('{"error":"","response":"late"}');
  });

  it('refuses unusable options with a typed error', async () => {
    await expect(startToolBenchServer({ path: 'virtual' })).rejects.toThrow(InvalidArgumentError);
    await expect(startToolBenchServer({ path: 'virtual' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'Invalid ToolBench server option path: must start with "/", got "virtual"',
    });
    await expect(
      startToolBenchServer({ failure: { kind: 'delay', ms: -1 } }),
    ).rejects.toMatchObject({ argument: 'failure.ms' });
    const server = await start();
    expect(() => server.setFailure({ kind: 'http-error', status: 200 })).toThrowError(/400-599/);
    expect(() => server.setFailure({ kind: 'malformed' }, { times: 0 })).toThrowError(/times/);
  });
});
