import { SUMMARY_KIND, TOOL_DESCRIPTION_KIND } from '@skein/conversation';
import { o200kTokenCounter } from '@skein/conversation/tokenizer';
import { contentText, type LLMMessage, type LLMRequest, SkeinError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { ScriptedResponse } from '../testing/types.js';
import type { Tool } from '../tools/tool.js';
import { chatWorkflow } from '../workflow/chat-workflow.js';
import type { ConformanceSubject } from './checkpoint-store-conformance.js';

const TURNS = 1_000;
const WINDOW = 8_000;
const SYSTEM = 'You are the archive assistant. Answer in one sentence.';

const lookup: Tool<{ turn: number }> = {
  name: 'lookup',
  description: 'Looks up the archive record of a turn',
  parameters: { type: 'object', properties: { turn: { type: 'number' } }, required: ['turn'] },
  execute: ({ turn }) =>
    `Record ${turn}: filed under shelf ${turn % 37}, box ${turn % 11}; condition good; ` +
    `last checked in year ${1900 + (turn % 120)}; notes: ${'catalogued and cross-referenced '.repeat(4)}`,
};

/** A 400 as OpenAI answers it: not retryable, so the run would fail on it. */
function badRequest(message: string): SkeinError {
  return new SkeinError('LLM_BAD_REQUEST', `400 ${message}`, { retryable: false });
}

const countTokens = (messages: readonly LLMMessage[]) =>
  messages.reduce((sum, m) => sum + o200kTokenCounter(m), 0);

/**
 * What the provider checks before it answers, as OpenAI does: each tool message follows the
 * assistant message that called it, and the request (messages and tools, by o200k) fits the
 * window.
 */
function refuseAsProviderWould(request: LLMRequest): void {
  let open = new Set<string>();
  for (const [i, m] of request.messages.entries()) {
    if (m.role === 'tool') {
      if (!open.has(m.toolCallId ?? ''))
        throw badRequest(`messages[${i}]: no tool call found for ${m.toolCallId}`);
      open.delete(m.toolCallId!);
    } else open = new Set((m.toolCalls ?? []).map((c) => c.id));
  }
  const tokens =
    countTokens(request.messages) +
    o200kTokenCounter({ role: 'system', content: JSON.stringify(request.tools) });
  if (tokens > WINDOW) throw badRequest(`the request has ${tokens} tokens, over ${WINDOW}`);
}

interface Seen {
  readonly request: LLMRequest;
  readonly answer: ScriptedResponse;
}

/** The provider of the long conversation: a tool call in two turns of three, then an answer. */
function provider(seen: Seen[][]) {
  return (request: LLMRequest): ScriptedResponse => {
    refuseAsProviderWould(request);
    let answer: ScriptedResponse;
    if (request.purpose === 'summary') {
      // A new batch begins with each summary: requests after it belong to the next one.
      const turns = [...contentText(request.messages[1]!.content).matchAll(/turn (\d+)/g)].map(
        (m) => Number(m[1]),
      );
      answer = {
        content: `The user went through the archive turn by turn, up to turn ${Math.max(0, ...turns)}; every record looked up was in good condition.`,
      };
      seen.push([]);
      return answer;
    }
    const last = request.messages.at(-1)!;
    const turn = Number(/turn (\d+)/.exec(contentText(last.content))?.[1] ?? -1);
    if (last.role === 'user' && turn % 3 !== 0)
      answer = { toolCalls: [{ name: 'lookup', arguments: { turn } }] };
    else answer = { content: `Noted, turn ${turn} is on file.` };
    seen.at(-1)!.push({ request, answer });
    return answer;
  };
}

const view = (messages: readonly LLMMessage[]) =>
  messages.map((m) => ({
    role: m.role,
    content: contentText(m.content),
    calls: (m.toolCalls ?? []).map((c) => `${c.name} ${c.arguments}`),
  }));

/**
 * A long conversation on a store (run it from a vitest test file, once per store: it takes tens
 * of seconds on a database): 1,000 turns, tool calls in most, an 8,000-token window, and a
 * provider that answers 400 to a request over it (counted with o200k: needs `gpt-tokenizer`) or
 * to a tool message without its call. With `compact`, no request fails; every request shows the
 * system prompt and the tool description once; every message is stored; and rolling back to
 * each batch a summary ended shows that batch again, as the model last saw it.
 */
export function runLongConversationConformance(
  name: string,
  create: () => Promise<ConformanceSubject>,
): void {
  describe(`long conversation: ${name}`, () => {
    it('runs 1,000 turns in an 8,000-token window through summaries, losing nothing', async () => {
      const { store, reopen, cleanup } = await create();
      try {
        await longConversation(store, reopen);
      } finally {
        await store.close?.();
        await cleanup?.();
      }
    }, 600_000);
  });
}

async function longConversation(
  store: CheckpointStore,
  reopen: (() => Promise<CheckpointStore>) | undefined,
): Promise<void> {
  const seen: Seen[][] = [[]];
  const llm = new ScriptedLLMClient([provider(seen)], {
    whenExhausted: 'repeat-last',
    stream: false,
  });
  const engine = new SkeinEngine({ llm, store, tokenCounter: o200kTokenCounter });
  engine.registerTool(lookup);
  engine.registerWorkflow(
    chatWorkflow({
      systemPrompt: SYSTEM,
      initialTools: ['lookup'],
      compact: { contextWindow: WINDOW, fraction: 0.75 },
    }),
  );
  for (let turn = 1; turn <= TURNS; turn++) {
    const { result } = await engine.send(
      'long',
      `This is turn ${turn}. Please check the archive record for this turn and tell me where it is filed.`,
    );
    if (result.status !== 'COMPLETED') expect.fail(`turn ${turn}: ${JSON.stringify(result.error)}`);
  }
  const summaries = seen.length - 1;
  expect(summaries).toBeGreaterThan(10);

  for (const { request } of seen.flat()) {
    const shown = request.messages;
    expect(shown.filter((m) => contentText(m.content) === SYSTEM)).toHaveLength(1);
    expect(shown.filter((m) => m.metadata?.kind === TOOL_DESCRIPTION_KIND)).toHaveLength(1);
    expect(shown.filter((m) => m.metadata?.kind === SUMMARY_KIND).length).toBeLessThanOrEqual(1);
  }

  // Read back as another process would: every message is stored, in order.
  const stored = (await (reopen ? await reopen() : store).load('long'))!;
  const all = stored.conversation.messages;
  const asked = all.filter((m) => m.role === 'user' && m.metadata?.kind !== SUMMARY_KIND);
  expect(asked.map((m) => Number(/turn (\d+)/.exec(contentText(m.content))![1]))).toEqual(
    Array.from({ length: TURNS }, (_, i) => i + 1),
  );
  expect(all.filter((m) => m.metadata?.kind === SUMMARY_KIND)).toHaveLength(summaries);

  // Each summary's batch rolled back: the view the model last saw in the batch before it,
  // followed only by what was added to that view after that call.
  const { conversation } = (await engine.getThread('long'))!;
  const lastBatch = conversation.currentBatch;
  expect(lastBatch).toBe(summaries);
  // From the last down: a rollback drops the batches after the one it goes back to.
  for (let batch = summaries - 1; batch >= 0; batch--) {
    conversation.rollbackToBatch(batch);
    const restored = view(conversation.getMessages());
    const last = seen[batch]!.at(-1)!;
    expect(restored.slice(0, last.request.messages.length)).toEqual(view(last.request.messages));
    const after = restored.slice(last.request.messages.length);
    expect(after[0]).toMatchObject({
      role: 'assistant',
      content: last.answer.content ?? '',
      calls: (last.answer.toolCalls ?? []).map((c) => `${c.name} ${JSON.stringify(c.arguments)}`),
    });
    expect(after.slice(1).every((m) => m.role === 'tool' || m.role === 'user')).toBe(true);
  }
}
