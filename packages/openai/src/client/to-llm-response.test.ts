import { ToolNameCodec } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import type { AccumulatorResult, AccumulatorWarning } from '../accumulator/types.js';
import { mapFinishReason } from './map-finish-reason.js';
import { extraContentOf } from './message-metadata.js';
import { toLLMResponse } from './to-llm-response.js';

function result(fields: Partial<AccumulatorResult>): AccumulatorResult {
  return {
    index: 0,
    text: '',
    reasoning: '',
    refusal: '',
    toolCalls: [],
    finishReason: undefined,
    choices: [],
    usage: undefined,
    rawUsage: undefined,
    model: undefined,
    responseId: undefined,
    chunks: 0,
    warnings: [],
    ...fields,
  };
}

describe('toLLMResponse', () => {
  it('decodes tool names, keeps both names in metadata and decides tool_calls from the calls', () => {
    const codec = new ToolNameCodec();
    const encoded = codec.encode('weird name.v2');
    const warnings: AccumulatorWarning[] = [];
    const response = toLLMResponse(
      result({
        text: 'calling',
        reasoning: 'because',
        finishReason: 'stop',
        model: 'served-model',
        usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
        toolCalls: [
          { id: 'a', type: 'function', name: encoded, arguments: '{}', extraContent: { sig: 1 } },
          { id: 'b', type: 'function', name: 'made_up', arguments: '{}' },
          { id: 'c', type: 'function', name: '', arguments: '{}', error: 'no name' },
        ],
      }),
      codec,
      'asked-model',
      (w) => warnings.push(w),
    );
    expect(response).toEqual({
      message: {
        role: 'assistant',
        content: 'calling',
        toolCalls: [
          { id: 'a', name: 'weird name.v2', arguments: '{}' },
          { id: 'b', name: 'made_up', arguments: '{}' },
          { id: 'c', name: '', arguments: '{}', error: 'no name' },
        ],
        metadata: {
          reasoning: 'because',
          encodedToolNames: { a: encoded },
          toolCallExtraContent: { a: { sig: 1 } },
        },
      },
      finishReason: 'tool_calls',
      usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
      model: 'served-model',
    });
    expect(warnings.map((w) => w.code)).toEqual(['TOOL_NAME_UNKNOWN']);
  });

  it('puts a refusal in the content when there is no text', () => {
    const response = toLLMResponse(
      result({ refusal: 'I cannot' }),
      new ToolNameCodec(),
      'm',
      () => {},
    );
    expect(response.message).toEqual({
      role: 'assistant',
      content: 'I cannot',
      metadata: { refusal: 'I cannot' },
    });
    expect(response.model).toBe('m');
    expect(response.usage).toBeUndefined();
  });
});

describe('mapFinishReason', () => {
  it.each([
    [undefined, false, 'stop'],
    ['stop', true, 'tool_calls'],
    ['tool_calls', true, 'tool_calls'],
    ['tool_calls', false, 'other'],
    ['length', false, 'length'],
    ['max_tokens', false, 'length'],
    ['content_filter', false, 'content_filter'],
    ['end_turn', false, 'stop'],
    ['error', false, 'error'],
    ['whatever', false, 'other'],
  ] as const)('%s with calls=%s is %s', (raw, calls, expected) => {
    expect(mapFinishReason(raw, calls)).toBe(expected);
  });

  it('keeps a tool call whose id is __proto__ in both metadata maps, and reads only own entries', () => {
    const codec = new ToolNameCodec();
    const encoded = codec.encode('weird name.v2');
    const response = toLLMResponse(
      result({
        toolCalls: [
          {
            id: '__proto__',
            type: 'function',
            name: encoded,
            arguments: '{}',
            extraContent: { sig: 2 },
          },
        ],
      }),
      codec,
      'model',
      () => {},
    );
    const metadata = response.message.metadata!;
    const names = metadata.encodedToolNames as Record<string, string>;
    expect(Object.hasOwn(names, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(names, '__proto__')?.value).toBe(encoded);
    expect(extraContentOf(metadata, '__proto__')).toEqual({ sig: 2 });
    // Stored and read back, as a checkpoint does: still an own entry.
    const stored = JSON.parse(JSON.stringify(metadata)) as Record<string, unknown>;
    expect(extraContentOf(stored, '__proto__')).toEqual({ sig: 2 });
    expect(extraContentOf({ toolCallExtraContent: {} }, '__proto__')).toBeUndefined();
    expect(extraContentOf({ toolCallExtraContent: {} }, 'constructor')).toBeUndefined();
  });
});
