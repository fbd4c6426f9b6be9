import { startToolBenchServer, type ToolBenchServer } from '@skein/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type AnswerFile, FIXTURES, readFixture } from '../testing/fixtures.js';
import { ToolBenchClient } from './toolbench-client.js';

const servers: ToolBenchServer[] = [];
async function server(
  options: Parameters<typeof startToolBenchServer>[0] = {},
): Promise<ToolBenchServer> {
  const started = await startToolBenchServer(options);
  servers.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const request = {
  category: 'Data',
  toolName: 'keyword_analysis',
  apiName: 'popularsitesforquery',
  toolInput: '{\n  "q": "birthday party ideas"\n}',
};

describe('ToolBenchClient', () => {
  it('posts the reference body (Python json.dumps bytes) with the toolbench_key header', async () => {
    const s = await server({ responses: { popularsitesforquery: { response: 'ok' } } });
    const client = new ToolBenchClient({ url: s.url, key: 'my-key' });
    await client.call(request);
    const received = s.requests[0]!;
    expect(received).toMatchObject({
      method: 'POST',
      path: '/virtual',
      key: 'my-key',
      status: 200,
    });
    expect(received.rawBody).toBe(
      '{"category": "Data", "tool_name": "keyword_analysis", "api_name": "popularsitesforquery", "tool_input": "{\\n  \\"q\\": \\"birthday party ideas\\"\\n}", "strip": "truncate", "toolbench_key": "my-key"}',
    );
    expect(received.toolInput).toEqual({ q: 'birthday party ideas' });
  });

  it('shows the model the reply exactly as the reference re-serialises it (the recorded observation)', async () => {
    const messages = readFixture<AnswerFile>(FIXTURES.cot1073).answer_generation.train_messages.at(
      -1,
    )!;
    const recorded = messages.find((m) => m.role === 'function')?.content ?? '';
    const reply = JSON.parse(recorded) as { error: string; response: string };
    const s = await server({ responses: { popularsitesforquery: reply } });
    // ensureAscii: the recorded run's bytes (StableToolBench's json.dumps default).
    const result = await new ToolBenchClient({ url: s.url, ensureAscii: true }).call(request);
    expect(result).toMatchObject({ observation: recorded, status: 0, httpStatus: 200, reply });
  });

  it('keeps non-ASCII text as it is (ensure_ascii=False), int/float and key order of the reply', async () => {
    const s = await server({
      responses: () => ({ error: '无', response: { b: 'Calédonie 北京', a: [1, 2.5] } }),
    });
    const result = await new ToolBenchClient({ url: s.url }).call(request);
    // python3 -c 'import json; print(json.dumps(json.loads("{\"error\":\"无\",\"response\":{\"b\":\"Calédonie 北京\",\"a\":[1,2.5]}}"), ensure_ascii=False))'
    expect(result.observation).toBe(
      '{"error": "无", "response": {"b": "Calédonie 北京", "a": [1, 2.5]}}',
    );
  });

  it('escapes non-ASCII with ensureAscii, for observations byte-equal to recorded runs', async () => {
    const s = await server({ responses: () => ({ response: { b: 'Calédonie', a: [1, 2.5] } }) });
    const result = await new ToolBenchClient({ url: s.url, ensureAscii: true }).call(request);
    expect(result.observation).toBe(
      '{"error": "", "response": {"b": "Cal\\u00e9donie", "a": [1, 2.5]}}',
    );
  });

  it.each([
    ['API not working error...', 6],
    ['Unauthorized error...', 7],
    ['Unsubscribed error...', 8],
    ['Too many requests error...', 9],
    ['Rate limit per minute error...', 10],
    ['Message error...', 11],
    ['Something else', 0],
  ])('maps the server error %j to status %i', async (error, status) => {
    const s = await server({ responses: () => ({ error }) });
    expect((await new ToolBenchClient({ url: s.url }).call(request)).status).toBe(status);
  });

  it('maps an HTTP error to the reference observation with status 12', async () => {
    const s = await server({ failure: { kind: 'http-error', status: 503 } });
    expect(await new ToolBenchClient({ url: s.url }).call(request)).toEqual({
      observation: '{"error": "request invalid, data error. status_code=503", "response": ""}',
      status: 12,
      httpStatus: 503,
    });
  });

  it('maps a body that is not JSON, or not an object with "error", to status 12', async () => {
    const s = await server({ failure: { kind: 'malformed' } });
    expect(await new ToolBenchClient({ url: s.url }).call(request)).toEqual({
      observation: '{"error": "request invalid, data error", "response": ""}',
      status: 12,
      httpStatus: 200,
    });
    const list = new ToolBenchClient({
      url: 'http://127.0.0.1:9/virtual',
      fetch: async () => new Response('[1, 2]'),
    });
    expect((await list.call(request)).observation).toBe(
      '{"error": "request invalid, data error", "response": ""}',
    );
  });

  it('maps a reply slower than the timeout to the reference timeout observation (status 5)', async () => {
    const s = await server({ failure: { kind: 'delay', ms: 2_000 } });
    const result = await new ToolBenchClient({ url: s.url, timeoutMs: 50 }).call(request);
    expect(result).toEqual({
      observation: '{"error": "Timeout error...", "response": ""}',
      status: 5,
    });
  });

  it('rejects with the caller abort reason when the thread is cancelled', async () => {
    const s = await server({ failure: { kind: 'delay', ms: 2_000 } });
    const controller = new AbortController();
    const pending = new ToolBenchClient({ url: s.url, timeoutMs: 10_000 }).call(request, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error('cancelled by test')), 20);
    await expect(pending).rejects.toThrow('cancelled by test');
  });

  it('throws a typed error when the server cannot be reached', async () => {
    const s = await server();
    const url = s.url;
    await s.close();
    servers.length = 0;
    await expect(new ToolBenchClient({ url }).call(request)).rejects.toMatchObject({
      code: 'TOOLBENCH_SERVER_UNREACHABLE',
      url,
    });
  });

  it('defaults the timeout as the reference: none for /virtual, 15 s otherwise', () => {
    expect(new ToolBenchClient({ url: 'http://localhost:8080/virtual' }).timeoutMs).toBeUndefined();
    expect(new ToolBenchClient({ url: 'http://8.130.32.149:8080/rapidapi' }).timeoutMs).toBe(
      15_000,
    );
  });

  it('refuses unusable options', () => {
    expect(() => new ToolBenchClient({ url: 'not a url' })).toThrowError(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'url' }),
    );
    expect(() => new ToolBenchClient({ url: 'ftp://x/virtual' })).toThrowError(/http and https/);
    expect(() => new ToolBenchClient({ url: 'http://x/virtual', timeoutMs: 0 })).toThrowError(
      expect.objectContaining({ argument: 'timeoutMs' }),
    );
    expect(
      () => new ToolBenchClient({ url: 'http://x/virtual', ensureAscii: 'yes' as never }),
    ).toThrowError(expect.objectContaining({ argument: 'ensureAscii' }));
    expect(() => new ToolBenchClient({ url: 10n as never })).toThrowError(
      expect.objectContaining({ argument: 'url' }),
    );
  });
});
