import { SUMMARY_KIND } from '@skein/conversation';
import { contentText, type LLMMessage, type LLMRequest } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import type { SkeinEventMap } from '../events/event-map.js';
import { add } from '../test-support/executor-fixtures.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { ScriptedResponse } from '../testing/types.js';
import { chatWorkflow } from '../workflow/chat-workflow.js';
import type { SummarizeContextOperation } from '../workflow/types.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';

const userText = (request: LLMRequest) =>
  contentText(request.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');

/**
 * The model of these tests: "add A B" asks for the add tool, a tool result is answered with the
 * sum, anything else is echoed; a summary call answers with how many transcript lines it read.
 */
function model(request: LLMRequest): ScriptedResponse {
  if (request.purpose === 'summary') {
    const lines = contentText(request.messages[1]!.content).split('\n').length - 2;
    return {
      content: `summary of ${lines} lines`,
      usage: { promptTokens: 100, completionTokens: 7 },
    };
  }
  const last = request.messages.at(-1)!;
  if (last.role === 'tool') return { content: `sum is ${contentText(last.content)}` };
  const match = /^add (\d+) (\d+)$/.exec(userText(request));
  if (match) return { toolCalls: [{ name: 'add', arguments: { a: +match[1]!, b: +match[2]! } }] };
  return { content: `re: ${userText(request)}` };
}

/** A chat whose every turn is summarised after the reply, keeping the last turn. */
function squashingChat(op: Partial<SummarizeContextOperation> = {}) {
  return new WorkflowBuilder('chat', '1')
    .initialTools(['add'])
    .start()
    .llm('reply', { systemPrompt: 'Be brief.' })
    .contextProcessor('squash', [{ type: 'SUMMARIZE', keepTurns: 1, ...op }])
    .end()
    .chain('start', 'reply', 'squash', 'end')
    .build();
}

function setup(
  workflow = squashingChat(),
  script: (
    request: LLMRequest,
    index: number,
  ) => ScriptedResponse | Promise<ScriptedResponse> = model,
) {
  const llm = new ScriptedLLMClient([script], { whenExhausted: 'repeat-last', stream: false });
  const store = new InMemoryCheckpointStore();
  const engine = new SkeinEngine({ llm, store });
  engine.registerTools([add]);
  engine.registerWorkflow(workflow);
  const events: { [K in keyof SkeinEventMap]?: SkeinEventMap[K][] } = {};
  const record =
    <K extends keyof SkeinEventMap>(name: K) =>
    (event: SkeinEventMap[K]) => {
      events[name] ??= [];
      (events[name] as SkeinEventMap[K][]).push(event);
    };
  engine.events.on('llm:request', record('llm:request'));
  engine.events.on('llm:response', record('llm:response'));
  engine.events.on('operation:applied', record('operation:applied'));
  engine.events.on('warning', record('warning'));
  return { engine, llm, store, events };
}

const shown = (messages: readonly LLMMessage[]) =>
  messages.map((m) =>
    m.metadata?.kind === SUMMARY_KIND
      ? `summary:${contentText(m.content)}`
      : m.metadata?.kind === 'tool-description'
        ? 'tools'
        : `${m.role}:${contentText(m.content)}`,
  );

describe('SUMMARIZE in a CONTEXT_PROCESSOR node', () => {
  it('asks the model for a summary and shows it in place of all but the last turn', async () => {
    const { engine, llm, events } = setup();
    await engine.send('t', 'hello');
    await engine.send('t', 'add 2 3');
    const { thread } = await engine.send('t', 'thanks');

    const replies = llm.requests.filter((r) => r.purpose === undefined);
    // The third turn's reply saw the summary of turn one, and the second turn whole.
    expect(shown(replies[3]!.messages)).toEqual([
      'system:Be brief.',
      'tools',
      'summary:summary of 2 lines',
      'user:add 2 3',
      'assistant:',
      'tool:5',
      'assistant:sum is 5',
      'user:thanks',
    ]);
    // The summary call: no tools, the default prompt, a transcript of what it stands for, and the
    // earlier summary folded in.
    const summaries = llm.requests.filter((r) => r.purpose === 'summary');
    expect(summaries).toHaveLength(2);
    expect(summaries[1]!.tools).toEqual([]);
    expect(contentText(summaries[1]!.messages[0]!.content)).toMatch(/^You write the summary/);
    expect(contentText(summaries[1]!.messages[1]!.content).split('\n').slice(1)).toEqual([
      '',
      'Summary of what came before: summary of 2 lines',
      'User: add 2 3',
      'Assistant:',
      expect.stringMatching(/^ {2}calls add \(call_\w+\) with \{"a":2,"b":3\}$/),
      expect.stringMatching(/^Result of add \(call_\w+\): 5$/),
      'Assistant: sum is 5',
    ]);
    // Everything is still stored; each summary started a batch of its own.
    expect(thread.conversation.getAllMessages().length).toBeGreaterThan(
      thread.conversation.getMessages().length,
    );
    // The first turn had nothing to summarise but itself, which it keeps.
    expect(
      events['operation:applied']!.map((e) => [e.operation, e.nodeId, e.batch, e.summarized]),
    ).toEqual([
      ['SUMMARIZE', 'squash', 1, 2],
      ['SUMMARIZE', 'squash', 2, 5],
    ]);
    // The summary calls are model calls like any other: events and usage.
    const purposes = events['llm:request']!.map((e) => e.purpose ?? 'turn');
    expect(purposes.filter((p) => p === 'summary')).toHaveLength(2);
    const summaryResponses = events['llm:response']!.filter((e) => e.purpose === 'summary');
    expect(summaryResponses.map((e) => contentText(e.message.content))[0]).toBe(
      'summary of 2 lines',
    );
    expect(thread.conversation.getTotalUsage().completionTokens).toBeGreaterThanOrEqual(14);
    // engine.history names the checkpoints where a summary was made.
    const history = await engine.history('t');
    expect(history.filter((e) => e.changes.summarized !== undefined).map((e) => e.summary)).toEqual(
      [
        'squash completed; +1 message; summary of 2 messages',
        'squash completed; +1 message; summary of 5 messages',
      ],
    );
  });

  it('brings the earlier view back, message for message, when the batch is rolled back', async () => {
    const { engine } = setup();
    await engine.send('t', 'hello');
    const before = await engine.send('t', 'add 1 1');
    const thread = before.thread;
    const previous = thread.conversation.currentBatch - 1;
    // The view just before the summary: its batch, as it stood.
    const restored = thread.conversation.rollbackToBatch(previous);
    expect(restored).toBe(previous);
    // The first batch, as it stood when the summary replaced it.
    expect(shown(thread.conversation.getMessages())).toEqual([
      'tools',
      'system:Be brief.',
      'user:hello',
      'assistant:re: hello',
      'user:add 1 1',
      'assistant:',
      'tool:2',
      'assistant:sum is 2',
    ]);
  });

  it('names another model and replaces the prompt; keepTurns 0 summarises everything shown', async () => {
    const { engine, llm } = setup(
      squashingChat({ model: 'small-model', prompt: 'Squash it.', keepTurns: 0, role: 'system' }),
    );
    await engine.send('t', 'hello');
    const { thread } = await engine.send('t', 'again');
    const summary = llm.requests.filter((r) => r.purpose === 'summary')[1]!;
    expect(summary.model).toBe('small-model');
    expect(summary.messages[0]).toEqual({ role: 'system', content: 'Squash it.' });
    // A system-role summary comes first, before the tool description.
    expect(shown(thread.conversation.getMessages())).toEqual([
      'system:Be brief.',
      'summary:summary of 3 lines',
      'tools',
    ]);
  });

  it('makes no call when there is nothing to summarise', async () => {
    const { engine, llm, events } = setup(squashingChat({ keepTurns: 5 }));
    const { result } = await engine.send('t', 'hello');
    expect(llm.requests.filter((r) => r.purpose === 'summary')).toHaveLength(0);
    expect(events['operation:applied']).toBeUndefined();
    expect(result.status).toBe('COMPLETED');
  });

  it('retries a failed or empty summary call by the policy, and stores one summary', async () => {
    let summaryCalls = 0;
    const { engine, events } = setup(
      squashingChat({ keepTurns: 0, retry: { maxAttempts: 3, initialDelayMs: 0 } }),
      (request) => {
        if (request.purpose !== 'summary') return model(request);
        summaryCalls++;
        if (summaryCalls === 1) return { fail: 'the provider is busy' };
        if (summaryCalls === 2) return { content: '  ' };
        return model(request);
      },
    );
    const { thread, result } = await engine.send('t', 'hello');
    expect(result.status).toBe('COMPLETED');
    expect(summaryCalls).toBe(3);
    expect(events.warning!.map((w) => w.code)).toEqual(['LLM_RETRY', 'LLM_RETRY']);
    expect(events.warning![1]!.message).toMatch(/summary model call failed.*no text/);
    const summaries = thread.conversation
      .getAllMessages()
      .filter((m) => m.metadata?.kind === SUMMARY_KIND);
    expect(summaries).toHaveLength(1);
  });

  it('fails the node when the retries are spent, leaving the conversation as it was', async () => {
    const retry = { maxAttempts: 2, initialDelayMs: 0 };
    const { engine } = setup(squashingChat({ keepTurns: 0, retry }), (request) =>
      request.purpose === 'summary' ? { content: '' } : model(request),
    );
    const { thread, result } = await engine.send('t', 'hello');
    expect(result).toMatchObject({ status: 'FAILED', error: { code: 'LLM_CALL_FAILED' } });
    expect(
      thread.conversation.getAllMessages().some((m) => m.metadata?.kind === SUMMARY_KIND),
    ).toBe(false);
    expect(shown(thread.conversation.getMessages())).toEqual([
      'tools',
      'system:Be brief.',
      'user:hello',
      'assistant:re: hello',
    ]);
  });

  it('shows attachments to the summary model as placeholders, or as parts when asked', async () => {
    const png = Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13]);
    const photo = [
      { type: 'text' as const, text: 'look at this' },
      { type: 'image' as const, mediaType: 'image/png', data: png },
    ];
    for (const attachments of ['placeholder', 'send'] as const) {
      const { engine, llm } = setup(squashingChat({ keepTurns: 0, attachments }));
      await engine.send('t', { content: photo });
      const transcript = llm.requests.find((r) => r.purpose === 'summary')!.messages[1]!.content;
      if (attachments === 'placeholder') {
        expect(typeof transcript).toBe('string');
        expect(transcript).toContain('User: look at this [image, image/png, 12 bytes]');
      } else {
        expect(Array.isArray(transcript)).toBe(true);
        const parts = transcript as readonly { type: string }[];
        expect(parts.map((p) => p.type)).toEqual(['text', 'image', 'text']);
        expect(parts[1]).toEqual({
          type: 'image',
          mediaType: 'image/png',
          data: Buffer.from(png).toString('base64'),
        });
      }
    }
  });
});

describe('a summary call interrupted by a crash', () => {
  it('is made again by the engine that recovers the thread, and one summary is stored', async () => {
    let release!: (response: ScriptedResponse) => void;
    const late = new Promise<ScriptedResponse>((resolve) => {
      release = resolve;
    });
    let summaryCalls = 0;
    const llm = new ScriptedLLMClient(
      [
        (request: LLMRequest) => {
          if (request.purpose !== 'summary') return model(request);
          summaryCalls++;
          // The first process's summary call never comes back while it lives.
          return summaryCalls === 1 ? late : model(request);
        },
      ],
      { whenExhausted: 'repeat-last', stream: false },
    );
    const store = new InMemoryCheckpointStore();
    const workflow = squashingChat({ keepTurns: 0 });
    const dead = new SkeinEngine({ llm, store, owner: 'dead', now: () => 1_000 });
    dead.registerTools([add]);
    dead.registerWorkflow(workflow);
    const running = dead.send('t', 'hello');
    while (summaryCalls === 0) await new Promise((resolve) => setImmediate(resolve));

    // Another process, once the dead one's lease has run out.
    const recovering = new SkeinEngine({ llm, store, owner: 'alive', now: () => 10_000_000 });
    recovering.registerTools([add]);
    recovering.registerWorkflow(workflow);
    const started = await recovering.recover();
    expect(started).toHaveLength(1);
    expect((await started[0]!.result).status).toBe('COMPLETED');
    expect(summaryCalls).toBe(2);

    // The first call answers at last: its process no longer holds the thread, and its summary
    // is never stored.
    release({ content: 'a stale summary' });
    await running.catch(() => undefined);
    const stored = (await store.load('t'))!;
    const summaries = stored.conversation.messages.filter((m) => m.metadata?.kind === SUMMARY_KIND);
    expect(summaries.map((m) => m.content)).toEqual(['summary of 2 lines']);
    dead.close();
    recovering.close();
  });
});

/** Each tool message of `messages` follows the assistant message that called it. */
function pairsWhole(messages: readonly LLMMessage[]): boolean {
  const open = new Set<string>();
  for (const m of messages) {
    if (m.role === 'assistant') {
      open.clear();
      for (const call of m.toolCalls ?? []) open.add(call.id);
    } else if (m.role === 'tool' && !open.has(m.toolCallId ?? '')) return false;
  }
  return true;
}

describe('compact on an LLM node', () => {
  const turns = ['hello', 'add 1 2', 'what next', 'add 3 4', 'and then', 'add 5 6', 'done'];

  it('summarises before a call that would pass the threshold, keeping the last two turns whole', async () => {
    const threshold = 90;
    const { engine, llm, events } = setup(
      chatWorkflow({ initialTools: ['add'], systemPrompt: 'Be brief.', compact: { threshold } }),
    );
    let thread!: Awaited<ReturnType<typeof engine.send>>['thread'];
    for (const turn of turns) thread = (await engine.send('t', turn)).thread;
    const { conversation } = thread;
    const replies = llm.requests.filter((r) => r.purpose === undefined);
    const tokens = (r: LLMRequest) =>
      r.messages.reduce((sum, m) => sum + conversation.countTokens(m), 0);
    // Every reply went out under the threshold, with whole tool pairs and one tool description.
    for (const request of replies) {
      expect(tokens(request)).toBeLessThanOrEqual(threshold);
      expect(pairsWhole(request.messages)).toBe(true);
      expect(shown(request.messages).filter((m) => m === 'tools')).toHaveLength(1);
    }
    const summaries = events['operation:applied']!.filter((e) => e.operation === 'SUMMARIZE');
    expect(summaries.length).toBeGreaterThan(0);
    expect(summaries.every((e) => e.nodeId === 'reply')).toBe(true);
    // A summary runs before the call that needed it: it is the request just before a reply.
    const order = llm.requests.map((r) => r.purpose ?? 'reply');
    expect(order[0]).toBe('reply');
    expect(order.filter((p) => p === 'summary')).toHaveLength(summaries.length);
    // Nothing stored is lost.
    expect(
      conversation
        .getAllMessages()
        .filter((m) => m.role === 'user')
        .map((m) => contentText(m.content)),
    ).toEqual(expect.arrayContaining(turns));
  });

  it('takes a fraction of the context window the app states', async () => {
    const { engine, llm } = setup(
      chatWorkflow({ initialTools: ['add'], compact: { contextWindow: 200, fraction: 0.4 } }),
    );
    let thread!: Awaited<ReturnType<typeof engine.send>>['thread'];
    for (const turn of turns) thread = (await engine.send('t', turn)).thread;
    const replies = llm.requests.filter((r) => r.purpose === undefined);
    for (const request of replies)
      expect(
        request.messages.reduce((sum, m) => sum + thread.conversation.countTokens(m), 0),
      ).toBeLessThanOrEqual(80);
    expect(llm.requests.some((r) => r.purpose === 'summary')).toBe(true);
  });

  it('warns and calls anyway when nothing is left to summarise', async () => {
    const { engine, llm, events } = setup(chatWorkflow({ compact: { threshold: 10 } }));
    const { result } = await engine.send('t', 'a first message far longer than ten tokens, alone');
    expect(result.status).toBe('COMPLETED');
    expect(llm.requests.some((r) => r.purpose === 'summary')).toBe(false);
    expect(events.warning!.map((w) => w.code)).toEqual(['CONTEXT_OVER_BUDGET']);
  });
});

describe('summary options in a workflow', () => {
  const invalid = (build: () => unknown) => {
    try {
      build();
    } catch (error) {
      return (error as { issues?: { path: string; message: string }[] }).issues ?? error;
    }
    return undefined;
  };
  const engine = () => new SkeinEngine({ llm: new ScriptedLLMClient([{ content: 'x' }]) });

  it('are checked where they are written', () => {
    const issues = invalid(() =>
      engine().registerWorkflow(
        new WorkflowBuilder('w', '1')
          .start()
          .contextProcessor('c', [
            { type: 'SUMMARIZE', keepTurns: -1, role: 'tool', attachments: 'all' } as never,
          ])
          .llm('l', { compact: { threshold: 10, contextWindow: 100 } as never })
          .end()
          .chain('start', 'c', 'l', 'end')
          .build(),
      ),
    );
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'nodes[1].config.operations[0].keepTurns' }),
        expect.objectContaining({ path: 'nodes[1].config.operations[0].role' }),
        expect.objectContaining({ path: 'nodes[1].config.operations[0].attachments' }),
        expect.objectContaining({
          path: 'nodes[2].config.compact',
          message: expect.stringContaining('exactly one of threshold'),
        }),
      ]),
    );
  });

  it('are refused in a trigger, which cannot make a model call', () => {
    const issues = invalid(() =>
      engine().registerWorkflow({
        ...chatWorkflow(),
        triggers: [
          {
            id: 'squash',
            when: { type: 'visible-tokens-over', tokens: 200 },
            action: { type: 'context', operation: { type: 'SUMMARIZE' } as never },
          },
        ],
      }),
    );
    expect(issues).toEqual([
      expect.objectContaining({ message: expect.stringContaining('a trigger cannot SUMMARIZE') }),
    ]);
  });
});
