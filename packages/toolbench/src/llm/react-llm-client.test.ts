import { readFileSync } from 'node:fs';
import type { LLMMessage, LLMRequest, LLMStreamEvent, ToolSpec } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { toolBenchFunctions } from '../functions/api-to-function.js';
import type { ToolBenchQuery } from '../functions/types.js';
import { type AnswerFile, FIXTURES, readFixture } from '../testing/fixtures.js';
import { type CompletionRequest, createReActLLMClient } from './react-llm-client.js';
import {
  INVALID_FUNCTION_NAME,
  type ReActMessageMetadata,
  reactMetadataOf,
} from './react-metadata.js';

const cot = readFixture<AnswerFile>(FIXTURES.cot1073);
const recorded = cot.answer_generation.train_messages.at(-1)!;
const query1073 = readFixture<ToolBenchQuery[]>(FIXTURES.queries).find((q) => q.query_id === 1073)!;
const tools: ToolSpec[] = toolBenchFunctions(query1073);
const golden = JSON.parse(
  readFileSync(new URL('../__fixtures__/toolllama-prompts.golden.json', import.meta.url), 'utf8'),
) as { source: string; beforeMessage: number; prompt: string }[];

function request(messages: LLMMessage[], extra: Partial<LLMRequest> = {}): LLMRequest {
  return { threadId: 't', nodeId: 'n', messages, tools, ...extra };
}

const start: LLMMessage[] = [
  { role: 'system', content: recorded[0]!.content ?? '' },
  { role: 'system', content: 'Available tools: …', metadata: { kind: 'tool-description' } },
  { role: 'user', content: recorded[1]!.content ?? '' },
];

/** A completion function replaying texts in order and recording what it was asked. */
function scripted(texts: readonly (string | string[])[]) {
  const asked: CompletionRequest[] = [];
  let i = 0;
  const complete = (req: CompletionRequest) => {
    asked.push(req);
    const next = texts[i++];
    if (next === undefined) throw new Error('script exhausted');
    if (typeof next === 'string') return next;
    return (async function* () {
      for (const token of next) {
        if (req.signal.aborted) return;
        yield token;
      }
    })();
  };
  return { complete, asked };
}

function meta(message: LLMMessage): ReActMessageMetadata {
  const m = reactMetadataOf(message);
  if (!m) throw new Error('no metadata');
  return m;
}

const step = (action: string, input: string, thought = '') =>
  `Thought: ${thought}\nAction: ${action}\nAction Input: ${input}`;

describe('createReActLLMClient', () => {
  it('sends the reference prompt and replays a recorded trajectory with byte-exact history', async () => {
    const calls = recorded.filter((m) => m.role === 'assistant' && m.function_call);
    const script = scripted(
      calls.map((m) => step(m.function_call!.name, m.function_call!.arguments)),
    );
    const client = createReActLLMClient({ complete: script.complete, mode: 'reference' });
    const messages = [...start];
    // Drive it the way the engine does: answer each call with the recorded observation.
    const observations = recorded.filter((m) => m.role === 'function').map((m) => m.content ?? '');
    for (let turn = 0; turn < calls.length; turn++) {
      const { message, finishReason } = await client.generate(request(messages));
      messages.push(message);
      if (finishReason === 'stop') break;
      const call = message.toolCalls![0]!;
      messages.push({
        role: 'tool',
        toolCallId: call.id,
        name: call.name,
        content: observations[turn]!,
      });
    }
    expect(script.asked[0]?.prompt).toBe(
      golden.find((g) => g.source === FIXTURES.cot1073 && g.beforeMessage === 2)?.prompt,
    );
    expect(script.asked[1]?.prompt).toBe(
      golden.find((g) => g.source === FIXTURES.cot1073 && g.beforeMessage === 4)?.prompt,
    );
    expect(script.asked[0]?.stop).toEqual(['</s>']);
    const final = messages.at(-1)!;
    expect(final.toolCalls).toBeUndefined();
    expect(final.content).toBe(JSON.parse(cot.answer_generation.final_answer).final_answer);
    expect(meta(final).finish).toEqual({
      returnType: 'give_answer',
      arguments: cot.answer_generation.final_answer,
    });
  });

  it('turns Action / Action Input into one tool call with a reference-style id', async () => {
    const text = step('querykeywords_for_keyword_analysis', '{"q": "cakes"}', 'I need keywords.');
    const client = createReActLLMClient({ complete: () => text });
    const { message, finishReason } = await client.generate(request(start));
    expect(finishReason).toBe('tool_calls');
    expect(message.content).toBe('I need keywords.');
    expect(message.toolCalls).toEqual([
      {
        id: expect.stringMatching(/^call_[A-Za-z0-9]{8}$/),
        name: 'querykeywords_for_keyword_analysis',
        arguments: '{"q": "cakes"}',
      },
    ]);
    expect(meta(message)).toMatchObject({
      raw: text,
      mode: 'tolerant',
      parsedBy: 'strict',
      match: { kind: 'exact' },
    });
  });

  it("passes Python's NaN/Infinity arguments on as standard JSON (the engine reads no other)", async () => {
    const text = step('querykeywords_for_keyword_analysis', '{"q": "x", "n": NaN, "m": -Infinity}');
    const { message } = await createReActLLMClient({ complete: () => text }).generate(
      request(start),
    );
    expect(message.toolCalls?.[0]?.arguments).toBe('{"q":"x","n":null,"m":null}');
    expect(meta(message).parsedBy).toBe('strict');
  });

  it('writes its own function responses with non-ASCII as it is, or escaped with ensureAscii', async () => {
    const text = step('météo_for_x', '{}');
    const plain = await createReActLLMClient({ complete: () => text }).generate(request(start));
    expect(plain.message.toolCalls?.[0]?.error).toBe(
      '{"error": "No such function name: météo_for_x", "response": ""}',
    );
    const ascii = await createReActLLMClient({ complete: () => text, ensureAscii: true }).generate(
      request(start),
    );
    expect(ascii.message.toolCalls?.[0]?.error).toBe(
      '{"error": "No such function name: m\\u00e9t\\u00e9o_for_x", "response": ""}',
    );
    expect(() =>
      createReActLLMClient({ complete: () => text, ensureAscii: 1 as never }),
    ).toThrowError(expect.objectContaining({ argument: 'ensureAscii' }));
  });

  it('gives the final answer on Finish and a Finish error the model reads on bad Finish input', async () => {
    const give = step('Finish', '{"return_type": "give_answer", "final_answer": "Use Pinterest."}');
    const up = step('Finish', '{"return_type": "give_up_and_restart"}');
    const bad = step('Finish', '{"return_type": "give_answer"}');
    const client = createReActLLMClient({ complete: scripted([give, up, bad]).complete });
    const answer = await client.generate(request(start));
    expect(answer).toMatchObject({
      finishReason: 'stop',
      message: { role: 'assistant', content: 'Use Pinterest.' },
    });
    const gaveUp = await client.generate(request(start));
    expect(gaveUp.message.content).toBe('');
    expect(meta(gaveUp.message).finish?.returnType).toBe('give_up_and_restart');
    const invalid = await client.generate(request(start));
    expect(invalid.message.toolCalls?.[0]).toMatchObject({
      name: 'Finish',
      error: '{error:"must have "final_answer""}',
    });
  });

  it('turns an unusable reply into a call carrying the error the model sees next turn', async () => {
    const events: LLMStreamEvent[] = [];
    const client = createReActLLMClient({ complete: () => 'I think I am done here.' });
    const { message, finishReason } = await client.generate(request(start), {
      onEvent: (e) => events.push(e),
    });
    expect(finishReason).toBe('tool_calls');
    expect(message.toolCalls?.[0]).toMatchObject({ name: INVALID_FUNCTION_NAME, arguments: '{}' });
    expect(message.toolCalls?.[0]?.error).toMatch(
      /^\{"error": "Invalid output format: no \\"Action:\\" line\. Reply as /,
    );
    expect(JSON.parse(message.toolCalls![0]!.error!)).toMatchObject({ response: '' });
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'warning', code: 'REACT_PARSE_ERROR' }),
    );
  });

  it('answers an unknown action with the reference "No such function name" observation', async () => {
    const client = createReActLLMClient({ complete: () => step('weather_for_x', '{}') });
    const { message } = await client.generate(request(start));
    expect(message.toolCalls?.[0]).toMatchObject({
      name: INVALID_FUNCTION_NAME,
      error: '{"error": "No such function name: weather_for_x", "response": ""}',
    });
  });

  it('resolves a shortened or bare name by suffix and warns when that is ambiguous', async () => {
    const events: LLMStreamEvent[] = [];
    const client = createReActLLMClient({ complete: () => step('keyword_analysis', '{"q": "x"}') });
    const { message } = await client.generate(request(start), { onEvent: (e) => events.push(e) });
    expect(message.toolCalls?.[0]?.name).toBe('popularsitesforquery_for_keyword_analysis');
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'warning', code: 'TOOLBENCH_AMBIGUOUS_ACTION' }),
    );
  });

  it('reference mode reproduces the reference dispatch, quirks included', async () => {
    const texts = [
      step('', '{"q": "x"}'),
      step('querykeywords_for_keyword_analysis', '{"q": "x"} thanks'),
      step(' Finish', '{"return_type": "give_answer", "final_answer": "x"}'),
      step('Finish', '{"return_type": "give_answer", "final_answer": "The answer'),
      step('querykeywords_for_keyword_analysis', ''),
    ];
    const client = createReActLLMClient({
      complete: scripted(texts).complete,
      mode: 'reference',
      trimOutput: false,
    });
    const empty = await client.generate(request(start));
    expect(empty.message.toolCalls?.[0]).toMatchObject({
      name: 'popularsitesforquery_for_keyword_analysis',
      arguments: '{"q": "x"}',
    });
    const trailing = await client.generate(request(start));
    expect(trailing.message.toolCalls?.[0]).toMatchObject({
      name: 'querykeywords_for_keyword_analysis',
      error: '{"error": "Tool input parse error...\\n", "response": ""}',
    });
    const padded = await client.generate(request(start));
    expect(padded.message.toolCalls?.[0]?.error).toBe(
      '{"error": "No such function name:  Finish", "response": ""}',
    );
    const cut = await client.generate(request(start));
    expect(cut.message.content).toBe('The answer');
    const emptyInput = await client.generate(request(start));
    expect(emptyInput.message.toolCalls?.[0]?.arguments).toBe('{}');
  });

  it('stops a token stream once the Action Input is complete, forwarding tokens as text deltas', async () => {
    const text = step('querykeywords_for_keyword_analysis', '{"q": "a}b"}', 'go');
    const tail = '\nFunction: {"error": "", "response": "invented"}\nThought: more';
    const tokens = (text + tail).match(/[\s\S]{1,4}/g)!;
    let signal: AbortSignal | undefined;
    let yielded = 0;
    let closed = false;
    const client = createReActLLMClient({
      complete: (req) => {
        signal = req.signal;
        return (async function* () {
          try {
            for (const token of tokens) {
              yielded++;
              yield token;
            }
          } finally {
            closed = true;
          }
        })();
      },
    });
    const deltas: string[] = [];
    const { message } = await client.generate(request(start), {
      onEvent: (e) => e.type === 'text-delta' && deltas.push(e.delta),
    });
    expect(deltas.join('')).toBe(text);
    expect(signal?.aborted).toBe(true);
    expect(closed).toBe(true);
    expect(yielded).toBe(Math.ceil(text.length / 4));
    expect(meta(message).raw).toBe(text);
    expect(message.toolCalls?.[0]?.arguments).toBe('{"q": "a}b"}');
  });

  it('cuts at stop strings in streams and in plain text, and passes request settings on', async () => {
    const text = step('querykeywords_for_keyword_analysis', '{"q": 1}');
    const script = scripted([
      [...`${text.slice(0, 10)}`.split(''), text.slice(10), '</', 's>more'],
      `${text}</s>ignored`,
    ]);
    const client = createReActLLMClient({ complete: script.complete, stopAtCompleteAction: false });
    const deltas: string[] = [];
    const streamed = await client.generate(
      request(start, {
        stop: ['\nObservation:'],
        model: 'toolllama-2',
        temperature: 0,
        maxTokens: 7,
      }),
      {
        onEvent: (e) => e.type === 'text-delta' && deltas.push(e.delta),
      },
    );
    expect(deltas.join('')).toBe(text);
    expect(meta(streamed.message).raw).toBe(text);
    expect(script.asked[0]).toMatchObject({
      stop: ['</s>', '\nObservation:'],
      model: 'toolllama-2',
      temperature: 0,
      maxTokens: 7,
    });
    const plain = await client.generate(request(start));
    expect(meta(plain.message).raw).toBe(text);
  });

  it('rejects when the caller aborts, and refuses a completion that is not text', async () => {
    const controller = new AbortController();
    const client = createReActLLMClient({
      complete: () =>
        (async function* () {
          yield 'Thought: ';
          controller.abort(new Error('stopped by caller'));
          yield 'more';
        })(),
    });
    await expect(client.generate(request(start), { signal: controller.signal })).rejects.toThrow(
      'stopped by caller',
    );
    const broken = createReActLLMClient({ complete: () => 42 as unknown as string });
    await expect(broken.generate(request(start))).rejects.toMatchObject({
      code: 'TOOLBENCH_INVALID_COMPLETION',
    });
    expect(() => createReActLLMClient({} as never)).toThrowError(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'complete' }),
    );
  });

  it('rejects when the caller aborts even if the backend just ends its stream quietly', async () => {
    const controller = new AbortController();
    const client = createReActLLMClient({
      complete: ({ signal }) =>
        (async function* () {
          yield 'Thought: ';
          controller.abort(new Error('stopped by caller'));
          // Some backends end the stream on abort instead of throwing.
          if (signal.aborted) return;
          yield 'Action: Finish';
        })(),
    });
    await expect(client.generate(request(start), { signal: controller.signal })).rejects.toThrow(
      'stopped by caller',
    );
  });

  it('shows the model the error text of an error call, not the engine wording of its answer', async () => {
    const first = createReActLLMClient({ complete: () => step('weather_for_x', '{}') });
    const { message } = await first.generate(request(start));
    const call = message.toolCalls![0]!;
    const script = scripted([step('Finish', '{"return_type": "give_up_and_restart"}')]);
    await createReActLLMClient({ complete: script.complete }).generate(
      request([
        ...start,
        message,
        { role: 'tool', toolCallId: call.id, content: `Error [TOOL_CALL_INVALID]: ${call.error}` },
      ]),
    );
    expect(
      script.asked[0]?.prompt.endsWith(
        'Action: weather_for_x\nAction Input: {}\nFunction: {"error": "No such function name: weather_for_x", "response": ""}\nAssistant:\n',
      ),
    ).toBe(true);
  });

  it('renders assistant messages from other clients as the ReAct text they stand for', async () => {
    const script = scripted([step('Finish', '{"return_type": "give_up_and_restart"}')]);
    const client = createReActLLMClient({ complete: script.complete });
    await client.generate(
      request([
        ...start,
        {
          role: 'assistant',
          content: 'Let me look.',
          toolCalls: [
            { id: 'a', name: 'querykeywords_for_keyword_analysis', arguments: '{"q": 1}' },
          ],
        },
        { role: 'tool', toolCallId: 'a', content: '{"error": "", "response": "r"}' },
      ]),
    );
    expect(
      script.asked[0]?.prompt.endsWith(
        'Assistant: Thought: Let me look.\nAction: querykeywords_for_keyword_analysis\nAction Input: {"q": 1}\nFunction: {"error": "", "response": "r"}\nAssistant:\n',
      ),
    ).toBe(true);
    expect(script.asked[0]?.prompt).not.toContain('Available tools: …');
  });
});
