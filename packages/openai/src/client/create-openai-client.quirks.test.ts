import type { LLMStreamEvent, ToolSpec } from '@skein/spec';
import {
  type ChatCompletionsBody,
  type OpenAIServerQuirks,
  type ScriptedTurn,
  startOpenAICompatibleServer,
} from '@skein/testkit';
import { describe, expect, it } from 'vitest';
import { createOpenAIClient } from './create-openai-client.js';

const DOTTED = 'search.web results v2';
const tools: ToolSpec[] = [
  { name: DOTTED, description: '', parameters: { type: 'object' } },
  { name: 'get_weather', description: '', parameters: { type: 'object' } },
];

/** Two parallel calls (one under an encoded name) after some text. */
function turn(encodedDotted: string, ids: [string | null, string | null]): ScriptedTurn {
  return {
    content: 'Let me check.',
    toolCalls: [
      { id: ids[0], name: encodedDotted, arguments: '{"query":"skein ropes","limit":3}' },
      { id: ids[1], name: 'get_weather', arguments: '{"city":"Zürich"}' },
    ],
    usage: { promptTokens: 20, completionTokens: 9 },
  };
}

async function run(
  quirks: OpenAIServerQuirks,
  ids: [string | null, string | null] = ['call_1', 'call_2'],
) {
  const server = await startOpenAICompatibleServer({
    script: [(req) => turn((req.body as ChatCompletionsBody).tools![0]!.function.name, ids)],
    quirks,
  });
  try {
    const client = createOpenAIClient({
      baseURL: server.url,
      apiKey: 'k',
      model: 'm',
      maxRetries: 0,
    });
    const events: LLMStreamEvent[] = [];
    const response = await client.generate(
      { threadId: 't', nodeId: 'n', messages: [{ role: 'user', content: 'go' }], tools },
      { onEvent: (e) => events.push(e) },
    );
    return {
      response,
      events,
      warnings: events.flatMap((e) => (e.type === 'warning' ? [e.code] : [])),
    };
  } finally {
    await server.close();
  }
}

const expectedCalls = [
  { id: 'call_1', name: DOTTED, arguments: '{"query":"skein ropes","limit":3}' },
  { id: 'call_2', name: 'get_weather', arguments: '{"city":"Zürich"}' },
];

describe('each server quirk, through the real openai client', () => {
  it.each<[string, OpenAIServerQuirks]>([
    ['no quirk', {}],
    ['null id on the first chunk', { nullIdOnFirstChunk: true }],
    ['id only on a later chunk', { idOnLaterChunk: true }],
    ['id and name repeated on every chunk', { repeatIdAndName: true }],
    ['no index', { noIndex: true }],
    ['no index, id and name repeated', { noIndex: true, repeatIdAndName: true }],
    ['indexes starting at 1', { indexBase: 1 }],
    ['whole arguments in one chunk', { wholeArguments: true }],
    ['usage-only final chunk', { usageOnlyFinalChunk: true }],
    ['finish reason stop with calls', { stopWithToolCalls: true }],
    ['one-character fragments', { argumentsChunkSize: 1, textChunkSize: 1 }],
    [
      'late ids without an index, whole arguments',
      { noIndex: true, idOnLaterChunk: true, wholeArguments: true },
    ],
  ])('%s', async (_, quirks) => {
    const { response, events, warnings } = await run(quirks);
    expect(response.message.toolCalls).toEqual(expectedCalls);
    expect(response.message.content).toBe('Let me check.');
    expect(response.finishReason).toBe('tool_calls');
    expect(response.usage).toEqual({ promptTokens: 20, completionTokens: 9, totalTokens: 29 });
    expect(warnings).toEqual([]);
    const named = events.flatMap((e) => (e.type === 'tool-call-delta' && e.name ? [e.name] : []));
    expect(named).toEqual([DOTTED, 'get_weather']);
  });

  it('a provider that never sends ids: unique ids are generated and reported', async () => {
    const { response, warnings } = await run({ nullIdOnFirstChunk: true }, [null, null]);
    const ids = response.message.toolCalls!.map((c) => c.id);
    expect(ids.every((id) => /^call_[0-9a-f]{24}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(2);
    expect(warnings).toEqual(['TOOL_CALL_ID_GENERATED', 'TOOL_CALL_ID_GENERATED']);
  });
});

describe('warnings about an encoded tool', () => {
  it('carry the name the model used and the original', async () => {
    const server = await startOpenAICompatibleServer({
      script: [
        (req) => ({
          toolCalls: [
            {
              id: 'c1',
              name: (req.body as ChatCompletionsBody).tools![0]!.function.name,
              arguments: '{"query": "unterminated',
            },
          ],
        }),
      ],
    });
    try {
      const client = createOpenAIClient({ baseURL: server.url, apiKey: 'k', model: 'm' });
      const events: LLMStreamEvent[] = [];
      const response = await client.generate(
        { threadId: 't', nodeId: 'n', messages: [{ role: 'user', content: 'go' }], tools },
        { onEvent: (e) => events.push(e) },
      );
      const encoded = client.toolNames.encode(DOTTED);
      expect(response.message.toolCalls![0]).toEqual({
        id: 'c1',
        name: DOTTED,
        arguments: '{"query": "unterminated"}',
      });
      expect(events.find((e) => e.type === 'warning')).toMatchObject({
        code: 'TOOL_CALL_ARGUMENTS_REPAIRED',
        details: { name: encoded, originalName: DOTTED },
      });
    } finally {
      await server.close();
    }
  });
});
