import { ConversationError } from '@skein/conversation';
import type { LLMMessage, ToolCall, ToolSpec } from '@skein/spec';
import { ToolNameCodec } from '@skein/spec';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exportTranscript } from './export-transcript.js';
import { restoreTranscript } from './restore-transcript.js';

const NINETY =
  'crm.customers v2.lookup customer by email address.and return the full account profile now!';
const PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

const tools: ToolSpec[] = [
  {
    name: NINETY,
    description: 'Look a customer up',
    parameters: { type: 'object', properties: {} },
  },
  { name: 'get_weather', description: 'Weather', parameters: { type: 'object' }, strict: true },
];

const conversation: LLMMessage[] = [
  { role: 'system', content: 'Tools: …', metadata: { kind: 'tool-description' } },
  { role: 'user', content: 'Find a@b.c and the weather', name: 'alice' },
  {
    role: 'assistant',
    content: '',
    toolCalls: [
      { id: 'call_1', name: NINETY, arguments: '{"email":"a@b.c"}' },
      { id: 'call_2', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { id: 'call_3', name: '', arguments: '{}', error: 'no name' },
    ],
    metadata: { reasoning: 'two lookups' },
  },
  { role: 'tool', content: '{"name":"A"}', toolCallId: 'call_1', name: NINETY },
  { role: 'tool', content: 'sunny', toolCallId: 'call_2' },
  { role: 'tool', content: 'no name', toolCallId: 'call_3' },
  { role: 'assistant', content: 'A, and it is sunny.' },
];

/** Every tool name in `messages[].tool_calls` and in `tools`. */
function names(transcript: ReturnType<typeof exportTranscript>): string[] {
  return [
    ...transcript.messages.flatMap((m) =>
      (m.role === 'assistant' ? (m.tool_calls ?? []) : []).map((c) => c.function.name),
    ),
    ...transcript.tools.map((t) => t.function.name),
  ];
}

describe('exportTranscript', () => {
  it('refuses content in parts, naming the message, rather than write it without its media', () => {
    const messages: LLMMessage[] = [
      { role: 'user', content: 'hi' },
      {
        role: 'user',
        content: [{ type: 'image', mediaType: 'image/png', url: 'https://x.test/a.png' }],
      },
    ];
    expect(() => exportTranscript(messages, [])).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        argument: 'messages[1].content',
        details: expect.objectContaining({ partTypes: ['image'] }),
      }),
    );
  });

  it('a tool named __proto__ is mapped like any other, so the other encoded names are restored', () => {
    // Found by the property below (seed 258012096): written into a plain object, the mapping
    // entry "__proto__" was lost, so the transcript no longer read as the encoded form.
    const long =
      'crm.customers v2.lookup customer by email address.and return the full account profile now!';
    const specs = [
      { name: '__proto__', description: '', parameters: { type: 'object' } },
      { name: long, description: '', parameters: { type: 'object' } },
    ];
    const transcript = exportTranscript([], specs, { toolNames: 'encoded' });
    expect(Object.hasOwn(transcript.tool_name_mapping, '__proto__')).toBe(true);
    expect(restoreTranscript(JSON.parse(JSON.stringify(transcript)))).toStrictEqual({
      messages: [],
      tools: specs,
    });
  });

  it('writes every tool name encoded by default, with the mapping back', () => {
    const transcript = exportTranscript(conversation, tools);
    const encoded = new ToolNameCodec().encode(NINETY);
    expect(transcript.tools.map((t) => t.function.name)).toEqual([encoded, 'get_weather']);
    expect(names(transcript).every((n) => PATTERN.test(n))).toBe(true);
    expect(transcript.messages[2]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_1',
          type: 'function',
          function: { name: encoded, arguments: '{"email":"a@b.c"}' },
        },
        {
          id: 'call_2',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
        },
        {
          id: 'call_3',
          type: 'function',
          function: { name: 'skein_unnamed_tool', arguments: '{}' },
        },
      ],
    });
    expect(transcript.messages[3]).toEqual({
      role: 'tool',
      content: '{"name":"A"}',
      tool_call_id: 'call_1',
    });
    expect(transcript.tool_name_mapping).toEqual({ [encoded]: NINETY, get_weather: 'get_weather' });
    expect(transcript.skein_extras).toEqual({
      '0': { metadata: { kind: 'tool-description' } },
      '2': {
        metadata: { reasoning: 'two lookups' },
        tool_calls: { '2': { error: 'no name', unnamed: true } },
      },
      '3': { name: encoded },
    });
  });

  it('writes every tool name original when asked, still with the mapping', () => {
    const transcript = exportTranscript(conversation, tools, { toolNames: 'original' });
    expect(names(transcript)).toEqual([
      NINETY,
      'get_weather',
      'skein_unnamed_tool',
      NINETY,
      'get_weather',
    ]);
    expect(Object.values(transcript.tool_name_mapping)).toContain(NINETY);
  });

  it('uses the names a given codec gave out (e.g. the client’s)', () => {
    const codec = ToolNameCodec.fromMapping({ crm_lookup_pinned: NINETY });
    const transcript = exportTranscript(conversation, tools, { codec });
    expect(transcript.tools[0]!.function.name).toBe('crm_lookup_pinned');
    expect(transcript.tool_name_mapping.crm_lookup_pinned).toBe(NINETY);
  });

  it.each(['encoded', 'original'] as const)(
    'restores the %s form to exactly the original',
    (form) => {
      const transcript = exportTranscript(conversation, tools, { toolNames: form });
      const restored = restoreTranscript(JSON.parse(JSON.stringify(transcript)));
      expect(restored).toStrictEqual({ messages: conversation, tools });
    },
  );

  it.each(['encoded', 'original'] as const)(
    'restores the %s form when a tool is literally named like the encoding of another',
    (form) => {
      // a.b went out as a_b_e32b6 first; the tool named a_b_e32b6 came later (a_b_e32b6_d7aa4).
      const codec = new ToolNameCodec();
      codec.encode('a.b');
      const pair: ToolSpec[] = [
        { name: 'a.b', description: 'first', parameters: { type: 'object' } },
        { name: 'a_b_e32b6', description: 'second', parameters: { type: 'object' } },
      ];
      const messages: LLMMessage[] = [
        {
          role: 'system',
          content: 'Available tools:\n- a.b: first\n- a_b_e32b6: second',
          metadata: { kind: 'tool-description', tools: ['a.b', 'a_b_e32b6'] },
        },
        { role: 'user', content: 'both' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            { id: 'c1', name: 'a.b', arguments: '{}' },
            { id: 'c2', name: 'a_b_e32b6', arguments: '{}' },
          ],
        },
        { role: 'tool', content: '1', toolCallId: 'c1', name: 'a.b' },
        { role: 'tool', content: '2', toolCallId: 'c2', name: 'a_b_e32b6' },
      ];
      const transcript = exportTranscript(messages, pair, { toolNames: form, codec });
      if (form === 'encoded') {
        expect(transcript.tools.map((t) => t.function.name)).toEqual([
          'a_b_e32b6',
          'a_b_e32b6_d7aa4',
        ]);
        expect(transcript.messages[0]!.content).toBe(
          'Available tools:\n- a_b_e32b6: first\n- a_b_e32b6_d7aa4: second',
        );
      }
      const restored = restoreTranscript(JSON.parse(JSON.stringify(transcript)));
      expect(restored).toStrictEqual({ messages, tools: pair });
    },
  );

  it('accepts a readonly message list and leaves it as it was', () => {
    const frozen: readonly LLMMessage[] = Object.freeze(structuredClone(conversation));
    exportTranscript(frozen, tools);
    expect(frozen).toStrictEqual(conversation);
  });

  it('restores any generated conversation exactly, in both forms (property)', () => {
    const name = fc.oneof(
      fc.stringMatching(/^[a-z_]{1,10}$/),
      fc.string({ minLength: 1, maxLength: 90 }),
      fc.constant(NINETY),
    );
    const call: fc.Arbitrary<ToolCall> = fc.record(
      {
        id: fc.string({ minLength: 1, maxLength: 12 }),
        name: fc.oneof(name, fc.constant('')),
        arguments: fc.json(),
        error: fc.string(),
      },
      { requiredKeys: ['id', 'name', 'arguments'], noNullPrototype: true },
    );
    // Stored transcripts are JSON: metadata is whatever survives JSON (no -0, no null prototypes).
    const metadata = fc
      .dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 })
      .map((value) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>);
    const message: fc.Arbitrary<LLMMessage> = fc.oneof(
      fc.record(
        {
          role: fc.constantFrom('system', 'user'),
          content: fc.string(),
          name: fc.string(),
          metadata,
        },
        { requiredKeys: ['role', 'content'], noNullPrototype: true },
      ),
      fc.record(
        {
          role: fc.constant('assistant'),
          content: fc.string(),
          toolCalls: fc.array(call, { maxLength: 3 }),
          metadata,
        },
        { requiredKeys: ['role', 'content'], noNullPrototype: true },
      ),
      fc.record(
        {
          role: fc.constant('tool'),
          content: fc.string(),
          toolCallId: fc.string({ minLength: 1 }),
          name,
          metadata,
        },
        { requiredKeys: ['role', 'content', 'toolCallId'], noNullPrototype: true },
      ),
    ) as fc.Arbitrary<LLMMessage>;
    const spec: fc.Arbitrary<ToolSpec> = fc.record(
      {
        name,
        description: fc.string(),
        parameters: fc.constant({ type: 'object' }),
        strict: fc.boolean(),
      },
      { requiredKeys: ['name', 'description', 'parameters'], noNullPrototype: true },
    );
    fc.assert(
      fc.property(
        fc.array(message, { maxLength: 8 }),
        fc.uniqueArray(spec, { maxLength: 4, selector: (s) => s.name }),
        fc.constantFrom('encoded' as const, 'original' as const),
        (messages, specs, form) => {
          const transcript = exportTranscript(messages, specs, { toolNames: form });
          if (form === 'encoded') {
            for (const n of names(transcript)) expect(n).toMatch(PATTERN);
          }
          expect(restoreTranscript(JSON.parse(JSON.stringify(transcript)))).toStrictEqual({
            messages,
            tools: specs,
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('restoreTranscript', () => {
  it.each([
    ['a missing messages array', { tools: [], tool_name_mapping: {} }, 'messages'],
    ['an unknown role', { messages: [{ role: 'robot', content: '' }] }, 'messages[0].role'],
    [
      'content parts instead of a string',
      { messages: [{ role: 'user', content: [] }] },
      'messages[0].content',
    ],
    [
      'a call without function',
      { messages: [{ role: 'assistant', content: null, tool_calls: [{ id: 'a' }] }] },
      'messages[0].tool_calls[0].function',
    ],
    [
      'a tool message without tool_call_id',
      { messages: [{ role: 'tool', content: 'x' }] },
      'messages[0].tool_call_id',
    ],
    [
      'a non-string mapping value',
      {
        messages: [],
        tools: [{ type: 'function', function: { name: 'a', description: '', parameters: {} } }],
        tool_name_mapping: { a: 1 },
      },
      'tool_name_mapping["a"]',
    ],
  ])('names the place of %s', (_, bad, path) => {
    try {
      restoreTranscript(bad as never);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConversationError);
      expect((error as ConversationError).path).toBe(path);
      expect((error as ConversationError).code).toBe('INVALID_TRANSCRIPT');
    }
  });
});
