import { chatWorkflow, InMemoryCheckpointStore, SkeinEngine } from '@skein/core';
import { type LLMClient, SkeinError } from '@skein/spec';
import { DefaultChatTransport, type UIMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { createChatHandler } from './chat-handler.js';
import type { GuardedTextMode, SkeinDataMode } from './event-translator.js';
import { createUIMessageStreamResponse } from './sse.js';
import { type RunningChatServer, startChatServer } from './start-chat-server.js';
import { readAnswer, readResponseChunks } from './test-support/ai-reader.js';
import { guardedChatEngine, SECRET_ANSWER } from './test-support/guarded-chat.js';
import { collect, typesOf } from './test-support/read-stream.js';
import { toUIMessageStream } from './to-ui-message-stream.js';
import type { UIChunk } from './ui-chunk.js';

/** One turn of a guarded chat, its parts checked by the ai package's schema, then read. */
async function turn(
  text: string,
  guardedText: GuardedTextMode,
  skeinData: SkeinDataMode = 'parts',
  chat = guardedChatEngine(),
) {
  const { engine } = chat;
  const stream = toUIMessageStream(
    (onEvent, signal) => engine.send('g1', text, { onEvent, signal }),
    { threadId: 'g1', messageId: 'answer-1', skeinData, guardedText },
  );
  const chunks = await readResponseChunks(createUIMessageStreamResponse({ stream }));
  return { chunks, ...(await readAnswer(chunks)), engine };
}

/** Parts of the answer other than Skein's node, batch and checkpoint bookkeeping. */
const shown = (message: UIMessage) =>
  message.parts.filter((p) => !/^data-skein-(node|batch|checkpoint)$/.test(p.type));

const answerChunks = (chunks: readonly UIChunk[]) =>
  chunks.filter((c) => !/^data-skein-(node|batch|checkpoint)$/.test(c.type));

const TRIP = {
  type: 'data-skein-guardrail',
  data: {
    guardrail: 'noSecrets',
    stage: 'output',
    action: 'trip',
    reason: 'the answer holds a secret',
  },
};
const TRIP_ERROR =
  'GUARDRAIL_TRIPPED: Guardrail "noSecrets" tripped on the model\'s answer: the answer holds a secret';

describe('guardedText: hold', () => {
  it('sends an answer that passed whole, once the guardrails passed it', async () => {
    const { chunks, message, errors } = await turn('hello there', 'hold', 'off');
    expect(typesOf(chunks)).toEqual([
      'start',
      'start-step',
      'text-start',
      'text-delta',
      'text-end',
      'finish-step',
      'finish',
    ]);
    expect(errors).toEqual([]);
    expect(message.parts).toEqual([
      { type: 'step-start' },
      { type: 'text', text: 're: hello there', state: 'done' },
    ]);
  });

  it('never sends an answer an output guardrail stopped: the page gets the trip and the error', async () => {
    const { chunks, message, errors, engine } = await turn('secret?', 'hold');
    expect(JSON.stringify(chunks)).not.toContain('SECRET code');
    expect(typesOf(answerChunks(chunks))).toEqual([
      'start',
      'start-step',
      'data-skein-guardrail',
      'finish-step',
      'error',
    ]);
    expect(shown(message)).toEqual([{ type: 'step-start' }, TRIP]);
    expect(errors).toEqual([TRIP_ERROR]);
    // The thread never took the answer either.
    const thread = await engine.getThread('g1');
    expect(thread?.conversation.getAllMessages().some((m) => m.role === 'assistant')).toBe(false);
  });

  it('says an input trip the same way, before any model call', async () => {
    const { chunks, message, errors } = await turn('what is the weather?', 'hold');
    expect(typesOf(answerChunks(chunks))).toEqual(['start', 'data-skein-guardrail', 'error']);
    expect(shown(message)).toEqual([
      {
        type: 'data-skein-guardrail',
        data: { guardrail: 'offTopic', stage: 'input', action: 'trip', reason: 'off topic' },
      },
    ]);
    expect(errors).toEqual([expect.stringMatching(/^GUARDRAIL_TRIPPED: .*off topic$/)]);
  });

  it('shows a refused call and a redacted result as tool results, never the unredacted one', async () => {
    const { chunks, message, errors } = await turn('customer?', 'hold');
    expect(errors).toEqual([]);
    expect(JSON.stringify(chunks)).not.toContain('ada@example.com');
    const tools = message.parts.filter((p) => p.type.startsWith('tool-'));
    expect(tools).toEqual([
      expect.objectContaining({
        type: 'tool-lookup',
        toolCallId: 'call-lookup',
        state: 'output-available',
        output: { name: 'Ada', email: '[email]' },
      }),
      expect.objectContaining({
        type: 'tool-charge',
        toolCallId: 'call-charge',
        state: 'output-error',
        errorText: expect.stringContaining('refused by guardrail "chargeLimit": over 800'),
      }),
    ]);
    // The model's text before its calls comes first, as the model wrote it.
    const first = message.parts.findIndex((p) => p.type === 'text');
    expect(message.parts[first]).toMatchObject({ text: 'Looking.' });
    expect(first).toBeLessThan(message.parts.findIndex((p) => p.type === 'tool-lookup'));
    expect(message.parts.filter((p) => p.type === 'data-skein-guardrail')).toEqual([
      {
        type: 'data-skein-guardrail',
        data: {
          guardrail: 'chargeLimit',
          stage: 'tool-call',
          action: 'refuse',
          reason: 'over 800',
          toolCallId: 'call-charge',
          toolName: 'charge',
        },
      },
      {
        type: 'data-skein-guardrail',
        data: {
          guardrail: 'pii',
          stage: 'tool-result',
          action: 'redact',
          toolCallId: 'call-lookup',
          toolName: 'lookup',
        },
      },
    ]);
    expect(shown(message).at(-1)).toMatchObject({ type: 'text', text: 'Done.' });
  });

  it('shows a result a guardrail tripped on as withheld, never its content', async () => {
    const { chunks, message, errors } = await turn('pin?', 'hold');
    expect(JSON.stringify(chunks)).not.toContain('kiwi-lime');
    expect(message.parts.find((p) => p.type === 'tool-pin')).toMatchObject({
      state: 'output-error',
      errorText: 'withheld: guardrail "pii" stopped this result: a PIN in a tool result',
    });
    expect(errors).toEqual([expect.stringMatching(/^GUARDRAIL_TRIPPED: .*a PIN/)]);
  });
});

describe('guardedText: hold, a model call made again', () => {
  it('drops the text of an attempt that failed: only the answer taken is sent', async () => {
    let attempt = 0;
    // Streams half an answer, then fails as a provider's 503 does; the retry answers whole.
    const llm: LLMClient = {
      name: 'flaky',
      generate: async (_request, options) => {
        if (attempt++ === 0) {
          options?.onEvent?.({ type: 'text-delta', delta: 'half an ans' });
          throw new SkeinError('PROVIDER_UNAVAILABLE', 'try again', { retryable: true });
        }
        options?.onEvent?.({ type: 'text-delta', delta: 'The whole answer.' });
        return {
          message: { role: 'assistant', content: 'The whole answer.' },
          finishReason: 'stop',
        };
      },
    };
    const engine = new SkeinEngine({ llm, store: new InMemoryCheckpointStore() });
    engine.registerWorkflow(chatWorkflow({ retry: { maxAttempts: 2, initialDelayMs: 1 } }));
    const stream = toUIMessageStream((onEvent) => engine.send('r1', 'hi', { onEvent }), {
      threadId: 'r1',
      skeinData: 'off',
      guardedText: 'hold',
    });
    const chunks = await readResponseChunks(createUIMessageStreamResponse({ stream }));
    expect(JSON.stringify(chunks)).not.toContain('half');
    const { message } = await readAnswer(chunks);
    expect(message.parts.at(-1)).toEqual({
      type: 'text',
      text: 'The whole answer.',
      state: 'done',
    });
  });
});

describe('guardedText: stream', () => {
  it('streams the answer as it comes, then retracts it on a trip with a part the page acts on', async () => {
    const { chunks, message, errors } = await turn('secret?', 'stream');
    const types = typesOf(answerChunks(chunks));
    expect(types.slice(0, 3)).toEqual(['start', 'start-step', 'text-start']);
    expect(types.slice(3, -5).every((t) => t === 'text-delta')).toBe(true);
    expect(types.slice(-5)).toEqual([
      'text-end',
      'data-skein-retract',
      'data-skein-guardrail',
      'finish-step',
      'error',
    ]);
    const retract = {
      type: 'data-skein-retract',
      data: {
        messageId: 'answer-1',
        textIds: ['text-1'],
        guardrail: 'noSecrets',
        stage: 'output',
        reason: 'the answer holds a secret',
      },
    };
    // The reader has the text (the protocol cannot take a part back), then the retraction.
    expect(shown(message)).toEqual([
      { type: 'step-start' },
      { type: 'text', text: SECRET_ANSWER, state: 'done' },
      retract,
      TRIP,
    ]);
    expect(errors).toEqual([TRIP_ERROR]);
    // What the README tells a page to do: drop the text of the message's last step.
    expect(shown(withoutRetracted(message))).toEqual([{ type: 'step-start' }, retract, TRIP]);
  });

  it('sends a retraction as a transient part by default (useChat gives it to onData)', async () => {
    const { chunks } = await turn('secret?', 'stream', 'transient');
    expect(chunks.find((c) => c.type === 'data-skein-retract')).toMatchObject({ transient: true });
  });

  it('sends nothing to retract when the answer passed, and streams as before', async () => {
    const { chunks, message } = await turn('hello there', 'stream', 'off');
    expect(typesOf(chunks).filter((t) => t === 'text-delta').length).toBeGreaterThan(1);
    expect(message.parts.at(-1)).toEqual({ type: 'text', text: 're: hello there', state: 'done' });
  });

  it('sends a redacted output only redacted, and shows a refusal as an error', async () => {
    const { chunks, message } = await turn('customer?', 'stream');
    const outputs = chunks.filter(
      (c) => c.type === 'tool-output-available' && c.toolCallId === 'call-lookup',
    );
    expect(outputs.map((c) => (c as { output: unknown }).output)).toEqual([
      { name: 'Ada', email: '[email]' },
    ]);
    expect(message.parts.find((p) => p.type === 'tool-lookup')).toMatchObject({
      state: 'output-available',
      output: { name: 'Ada', email: '[email]' },
    });
    expect(message.parts.find((p) => p.type === 'tool-charge')).toMatchObject({
      state: 'output-error',
    });
  });
});

describe('the chat handler with guardrails', () => {
  let server: RunningChatServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function serve(guardedText?: GuardedTextMode) {
    const { engine } = guardedChatEngine();
    server = await startChatServer({
      engine,
      ...(guardedText === undefined ? {} : { guardedText }),
    });
    const transport = new DefaultChatTransport<UIMessage>({ api: `${server.url}/api/chat` });
    const post = async (messages: UIMessage[]) =>
      (await collect(
        await transport.sendMessages({
          chatId: 'c1',
          messages,
          trigger: 'submit-message',
          messageId: undefined,
          abortSignal: undefined,
        }),
      )) as UIChunk[];
    return { engine, post };
  }

  const user = (id: string, text: string): UIMessage => ({
    id,
    role: 'user',
    parts: [{ type: 'text', text }],
  });

  it('holds the text by default when the engine has guardrails; a trip ends the turn, not the chat', async () => {
    const { post, engine } = await serve();
    const first = await post([user('u1', 'hello')]);
    expect(first.filter((c) => c.type === 'text-delta')).toEqual([
      { type: 'text-delta', id: 'text-1', delta: 're: hello' },
    ]);
    const answer = await readAnswer(first);
    const tripped = await post([user('u1', 'hello'), answer.message, user('u2', 'secret?')]);
    expect(tripped.some((c) => c.type.startsWith('text-'))).toBe(false);
    expect(tripped.find((c) => c.type === 'data-skein-guardrail')).toMatchObject({
      data: { guardrail: 'noSecrets', action: 'trip' },
      transient: true,
    });
    expect(tripped.at(-1)).toMatchObject({ type: 'error' });
    // useChat sends the chat as the page has it (the failed answer empty): the next turn runs.
    const failed = (await readAnswer(tripped)).message;
    const next = await post([
      user('u1', 'hello'),
      answer.message,
      user('u2', 'secret?'),
      failed,
      user('u3', 'and now?'),
    ]);
    expect((await readAnswer(next)).message.parts.at(-1)).toMatchObject({
      type: 'text',
      text: 're: and now?',
    });
    expect((await engine.getThread('c1'))?.status).toBe('COMPLETED');
  });

  it("streams at once when the app says 'stream', and retracts a tripped answer", async () => {
    const { post } = await serve('stream');
    const chunks = await post([user('u1', 'secret?')]);
    expect(chunks.filter((c) => c.type === 'text-delta').length).toBeGreaterThan(1);
    expect(chunks.find((c) => c.type === 'data-skein-retract')).toMatchObject({
      data: { messageId: 'u1-answer', textIds: ['text-1'], guardrail: 'noSecrets' },
      transient: true,
    });
  });

  it('refuses a guardedText that is not hold or stream', () => {
    const { engine } = guardedChatEngine();
    expect(() => createChatHandler({ engine, guardedText: 'later' as GuardedTextMode })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });
});

/** The page's part: the text parts of the message's last step leave it. */
function withoutRetracted(message: UIMessage): UIMessage {
  const step = message.parts.findLastIndex((p) => p.type === 'step-start');
  return { ...message, parts: message.parts.filter((p, i) => i < step || p.type !== 'text') };
}
