import type { LLMRequest, LLMResponse, LLMStreamEvent } from '@skein/spec';
import { type LLMMessage, SkeinError, type ToolSpec } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import type {
  LLMClientCapabilities,
  LLMClientConformanceFactory,
  LLMClientConformanceSubject,
  LLMClientConformanceTurn,
} from './llm-client-conformance-types.js';

/** Over 64 characters, with dots, a space and a slash: no provider takes it as it is. */
const CONFORMANCE_TOOL_NAME =
  'crm.customers v2/lookup-by-email.and-return-the-full-account-profile';

const tools: ToolSpec[] = [
  {
    name: CONFORMANCE_TOOL_NAME,
    description: 'Look a customer up by email',
    parameters: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] },
  },
  {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
  },
];

function requestFor({ systemPrompt }: LLMClientConformanceSubject): LLMRequest {
  const messages: LLMMessage[] = [
    { role: 'system', content: systemPrompt ?? 'Be brief.' },
    { role: 'user', content: 'Who is ada@example.com, and what is the weather in Oslo?' },
  ];
  return { threadId: 'conformance', nodeId: 'llm', messages, tools };
}

const ANSWER = 'Ada Lovelace is on the team plan, and Oslo has light rain after noon.';
const USAGE = { promptTokens: 41, completionTokens: 17 };
const ARGS = { email: 'ada@example.com', fields: ['name', 'plan'], limit: 2, note: 'ß→✓ 東京' };
const THOUGHT = 'I will look the customer up.';
const toolTurn: LLMClientConformanceTurn = {
  type: 'tool-call',
  thought: THOUGHT,
  name: CONFORMANCE_TOOL_NAME,
  arguments: ARGS,
  usage: USAGE,
};
/** An abort must end the call this fast, though the backend would go on for far longer. */
const PROMPT_MS = 1_000;
const UPPER_SNAKE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;

interface Outcome {
  readonly response: LLMResponse;
  readonly events: LLMStreamEvent[];
}

const joined = (events: readonly LLMStreamEvent[]) =>
  events.map((e) => (e.type === 'text-delta' ? e.delta : '')).join('');

function expectTypedError(error: unknown, retryable: boolean): void {
  expect(SkeinError.isInstance(error), `not a SkeinError: ${String(error)}`).toBe(true);
  const typed = error as SkeinError;
  expect(typed.code).toMatch(UPPER_SNAKE);
  expect(typed.retryable).toBe(retryable);
  expect(typed.message.length).toBeGreaterThan(0);
}

/**
 * The shared test suite every `LLMClient` adapter must pass (run it from a vitest test file):
 * text streamed as `text-delta` events and returned as one assistant message, tool calls with
 * their original names and JSON-string arguments (and their `tool-call-delta` events), usage,
 * an abort that rejects promptly, before or during the stream, and failures as typed errors that
 * say whether a retry can help. `create` sets up a client whose backend answers the given script;
 * `capabilities` declares what the protocol cannot do, and the suite checks that declaration.
 */
export function runLLMClientConformance(
  name: string,
  capabilities: LLMClientCapabilities,
  create: LLMClientConformanceFactory,
): void {
  describe(`LLMClient conformance: ${name}`, () => {
    const withClient = async <T>(
      script: readonly LLMClientConformanceTurn[],
      test: (subject: LLMClientConformanceSubject) => Promise<T>,
    ): Promise<T> => {
      const subject = await create(script);
      try {
        return await test(subject);
      } finally {
        await subject.cleanup?.();
      }
    };
    const answer = (turn: LLMClientConformanceTurn): Promise<Outcome> =>
      withClient([turn], async (subject) => {
        const events: LLMStreamEvent[] = [];
        const response = await subject.client.generate(requestFor(subject), {
          onEvent: (e) => events.push(e),
        });
        return { response, events };
      });

    it('streams text as text-delta events and returns it as one assistant message', async () => {
      const { response, events } = await answer({ type: 'text', text: ANSWER, usage: USAGE });
      expect(response.message.role).toBe('assistant');
      expect(response.message.content).toBe(ANSWER);
      expect(response.message.toolCalls ?? []).toEqual([]);
      expect(response.finishReason).toBe('stop');
      const deltas = events.filter((e) => e.type === 'text-delta');
      expect(deltas.length).toBeGreaterThan(1);
      if (capabilities.textDeltasAreContent) expect(joined(events)).toBe(ANSWER);
      else expect(joined(events)).toContain(ANSWER);
      // A checkpoint stores the message as JSON: nothing in it may be lost on the way.
      expect(JSON.parse(JSON.stringify(response.message))).toEqual(response.message);
    });

    it('returns a tool call under its original name, with the arguments as a JSON string', async () => {
      const { response } = await answer(toolTurn);
      expect(response.finishReason).toBe('tool_calls');
      expect(response.message.content).toBe(THOUGHT);
      const calls = response.message.toolCalls ?? [];
      expect(calls).toHaveLength(1);
      const call = calls[0]!;
      expect(call.name).toBe(CONFORMANCE_TOOL_NAME);
      expect(typeof call.arguments).toBe('string');
      expect(JSON.parse(call.arguments)).toEqual(ARGS);
      expect(call.id).toMatch(/\S/);
      expect(call.error).toBeUndefined();
      expect(JSON.parse(JSON.stringify(response.message))).toEqual(response.message);
    });

    it(`${capabilities.toolCallDeltas ? 'streams' : 'declares it does not stream'} tool-call deltas`, async () => {
      const { response, events } = await answer(toolTurn);
      const deltas = events.flatMap((e) => (e.type === 'tool-call-delta' ? [e] : []));
      if (!capabilities.toolCallDeltas) {
        expect(deltas).toEqual([]);
        return;
      }
      const call = response.message.toolCalls![0]!;
      expect(deltas.length).toBeGreaterThan(0);
      expect(new Set(deltas.map((d) => d.index)).size).toBe(1);
      expect(deltas.map((d) => d.argumentsDelta).join('')).toBe(call.arguments);
      // Events speak the caller's names too: an encoded name must not leak out.
      for (const d of deltas) if (d.name !== undefined) expect(d.name).toBe(CONFORMANCE_TOOL_NAME);
      for (const d of deltas) if (d.id !== undefined) expect(d.id).toBe(call.id);
    });

    it(`${capabilities.usage ? 'reports' : 'declares it does not report'} token usage`, async () => {
      const { response } = await answer({ type: 'text', text: ANSWER, usage: USAGE });
      if (!capabilities.usage) {
        expect(response.usage).toBeUndefined();
        return;
      }
      expect(response.usage).toEqual({
        promptTokens: USAGE.promptTokens,
        completionTokens: USAGE.completionTokens,
        totalTokens: USAGE.promptTokens + USAGE.completionTokens,
      });
    });

    const expectAbortError = (error: unknown, signal: AbortSignal) => {
      if (capabilities.typedAbortError) expectTypedError(error, false);
      else expect(error).toBe(signal.reason);
    };

    it('rejects promptly when the signal aborts during the stream', () =>
      withClient([{ type: 'slow-text', text: ANSWER.repeat(200) }], async (subject) => {
        const controller = new AbortController();
        let abortedAt = 0;
        const abort = () => {
          if (abortedAt) return;
          abortedAt = performance.now();
          controller.abort();
        };
        // Abort on the first delta, so the call is surely mid-stream; the timer only guards a
        // client that never streams (the assertion below then fails).
        const guard = setTimeout(abort, 5_000);
        let streamed = false;
        const error = await subject.client
          .generate(requestFor(subject), {
            signal: controller.signal,
            onEvent: (e) => {
              if (e.type !== 'text-delta') return;
              streamed = true;
              abort();
            },
          })
          .then(
            () => undefined,
            (e: unknown) => e,
          );
        clearTimeout(guard);
        expect(streamed).toBe(true);
        expect(performance.now() - abortedAt).toBeLessThan(PROMPT_MS);
        expect(error).toBeDefined();
        expectAbortError(error, controller.signal);
      }));

    it('rejects at once when the signal has already aborted', () =>
      withClient([{ type: 'text', text: ANSWER, usage: USAGE }], async (subject) => {
        const controller = new AbortController();
        controller.abort();
        const started = performance.now();
        const error = await subject.client
          .generate(requestFor(subject), { signal: controller.signal })
          .then(
            () => undefined,
            (e: unknown) => e,
          );
        expect(performance.now() - started).toBeLessThan(PROMPT_MS);
        expect(error).toBeDefined();
        expectAbortError(error, controller.signal);
      }));

    for (const retryable of [true, false]) {
      it(`fails with a typed error that says retryable: ${retryable}`, () =>
        withClient([{ type: 'fail', retryable }], async (subject) => {
          const error = await subject.client.generate(requestFor(subject)).then(
            () => undefined,
            (e: unknown) => e,
          );
          expectTypedError(error, retryable);
        }));
    }
  });
}
