import { SkeinEmitter, type ToolExecutionContext } from '@skein/core';
import { isToolOutput, type ToolOutput } from '@skein/spec';
import { startToolBenchServer, type ToolBenchServer } from '@skein/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolBenchClient } from '../client/toolbench-client.js';
import { FINISH_FUNCTION } from '../functions/finish-function.js';
import type { ToolBenchQuery } from '../functions/types.js';
import { type ConvertedEntry, FIXTURES, readFixture } from '../testing/fixtures.js';
import { toolsFromQuery } from './tools-from-query.js';

const queries = readFixture<ToolBenchQuery[]>(FIXTURES.queries);
const query1073 = queries.find((q) => q.query_id === 1073)!;

const servers: ToolBenchServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function context(signal = new AbortController().signal): ToolExecutionContext {
  return {
    threadId: 't',
    nodeId: 'n',
    toolCallId: 'call_1',
    signal,
    variables: {},
    emitter: new SkeinEmitter(),
  };
}

async function run(
  tool: { execute(args: Record<string, unknown>, c: ToolExecutionContext): unknown },
  args: Record<string, unknown>,
): Promise<ToolOutput> {
  const out = await tool.execute(args, context());
  if (!isToolOutput(out)) throw new Error('expected a ToolOutput');
  return out;
}

describe('toolsFromQuery', () => {
  it('offers the benchmark functions as tools (specs identical to the converted available_tools)', () => {
    const client = new ToolBenchClient({ url: 'http://127.0.0.1:1/virtual' });
    for (const query of queries) {
      const tools = toolsFromQuery(query, { client });
      const specs = tools.map(({ name, description, parameters }) => ({
        name,
        description,
        parameters,
      }));
      const converted = readFixture<Record<string, ConvertedEntry>>(FIXTURES.converted)[
        String(query.query_id)
      ]!;
      expect(JSON.stringify([...specs, FINISH_FUNCTION])).toBe(
        JSON.stringify(converted.available_tools),
      );
      expect(tools.every((t) => t.source === 'toolbench')).toBe(true);
    }
  });

  it('calls the server with the category from the data, the tool stem and the full action name', async () => {
    const s = await startToolBenchServer({
      responses: { querykeywords: { response: '<b>party</b>' } },
    });
    servers.push(s);
    const tools = toolsFromQuery(query1073, {
      client: new ToolBenchClient({ url: s.url, key: 'k' }),
    });
    const out = await run(tools[1]!, { q: 'birthday party ideas' });
    // The testkit server cuts `_for_<tool>` off as the virtual server does.
    expect(out.content).toBe('{"error": "", "response": "<b>party</b>"}');
    expect(out.isError).toBe(false);
    expect(out.data).toEqual({
      status: 0,
      category: 'Data',
      toolName: 'keyword_analysis',
      apiName: 'querykeywords',
    });
    expect(s.requests[0]?.body).toEqual({
      category: 'Data',
      tool_name: 'keyword_analysis',
      api_name: 'querykeywords_for_keyword_analysis',
      tool_input: '{"q":"birthday party ideas"}',
      strip: 'truncate',
      toolbench_key: 'k',
    });
  });

  it('sends only the API part with apiName: "api", as StableToolBench does', async () => {
    const s = await startToolBenchServer({
      responses: { querykeywords: { response: '<b>party</b>' } },
    });
    servers.push(s);
    const tools = toolsFromQuery(query1073, {
      client: new ToolBenchClient({ url: s.url, key: 'k' }),
      apiName: 'api',
    });
    const out = await run(tools[1]!, { q: 'birthday party ideas' });
    expect(out.content).toBe('{"error": "", "response": "<b>party</b>"}');
    expect(s.requests[0]?.body?.api_name).toBe('querykeywords');
  });

  it('shows a Chinese observation as it is and cuts it at 1024 characters of that text', async () => {
    const s = await startToolBenchServer({ responses: () => ({ response: '天气'.repeat(600) }) });
    servers.push(s);
    const [tool] = toolsFromQuery(query1073, { client: new ToolBenchClient({ url: s.url }) });
    // python3 -c 'import json; o = json.dumps({"error": "", "response": "天气" * 600}, ensure_ascii=False); print(o[:1024][-3:], len(o[:1024] + "..."))'
    // 气天气 1027 (escaped, only 166 of those characters would remain)
    const out = await run(tool!, { q: 'x' });
    expect(out.content).toBe(`{"error": "", "response": "${'天气'.repeat(498)}天...`);
    const escaped = await run(
      toolsFromQuery(query1073, {
        client: new ToolBenchClient({ url: s.url, ensureAscii: true }),
      })[0]!,
      { q: 'x' },
    );
    expect(escaped.content).toHaveLength(1027);
    expect(escaped.content.split('\\u').length - 1).toBe(166);
  });

  it('cuts observations at 1024 characters plus ... by default, or where asked', async () => {
    const s = await startToolBenchServer({ responses: () => ({ response: 'y'.repeat(3000) }) });
    servers.push(s);
    const client = new ToolBenchClient({ url: s.url });
    const defaults = await run(toolsFromQuery(query1073, { client })[0]!, { q: 'x' });
    expect(defaults.content).toHaveLength(1027);
    const short = await run(toolsFromQuery(query1073, { client, maxObservationLength: 30 })[0]!, {
      q: 'x',
    });
    expect(short.content).toBe(`{"error": "", "response": "yyy...`);
    const whole = await run(toolsFromQuery(query1073, { client, maxObservationLength: null })[0]!, {
      q: 'x',
    });
    expect(whole.content.length).toBeGreaterThan(3000);
  });

  it('passes a failed call through as the observation the benchmark shows, its status in data', async () => {
    const s = await startToolBenchServer({ failure: { kind: 'http-error' } });
    servers.push(s);
    const out = await run(
      toolsFromQuery(query1073, { client: new ToolBenchClient({ url: s.url }) })[0]!,
      { q: 'x' },
    );
    // Flagged as an error (for events and triggers); the text stays exactly the benchmark's.
    expect(out).toMatchObject({
      isError: true,
      content: '{"error": "request invalid, data error. status_code=500", "response": ""}',
      data: { status: 12 },
    });
  });

  it('never invents a category: a missing one is a typed error naming the tool', () => {
    const client = new ToolBenchClient({ url: 'http://127.0.0.1:1/virtual' });
    const query: ToolBenchQuery = {
      query: 'q',
      api_list: [{ tool_name: 'Olato Quotes', api_name: 'Love Quote' }],
    };
    expect(() => toolsFromQuery(query, { client })).toThrowError(
      expect.objectContaining({
        code: 'TOOLBENCH_MISSING_CATEGORY',
        toolName: 'Olato Quotes',
        apiName: 'Love Quote',
      }),
    );
    const [tool] = toolsFromQuery(query, { client, categories: { 'Olato Quotes': 'Social' } });
    expect(tool?.name).toBe('love_quote_for_olato_quotes');
  });

  it('takes the minimal query form (inference_query_demo.json)', () => {
    const [demo] = readFixture<ToolBenchQuery[]>(FIXTURES.demoQuery);
    const tools = toolsFromQuery(demo!, {
      client: new ToolBenchClient({ url: 'http://127.0.0.1:1/virtual' }),
    });
    expect(tools.map((t) => t.name)).toEqual([
      'love_quote_for_olato_quotes',
      'success_quote_for_olato_quotes',
      'motivation_quote_for_olato_quotes',
    ]);
  });

  it('refuses unusable options', () => {
    expect(() => toolsFromQuery(query1073, {} as never)).toThrowError(
      expect.objectContaining({ argument: 'client' }),
    );
    const client = new ToolBenchClient({ url: 'http://127.0.0.1:1/virtual' });
    expect(() => toolsFromQuery(query1073, { client, maxObservationLength: -1 })).toThrowError(
      expect.objectContaining({ argument: 'maxObservationLength' }),
    );
    expect(() => toolsFromQuery(query1073, { client, apiName: 'both' as never })).toThrowError(
      expect.objectContaining({ argument: 'apiName' }),
    );
  });
});
