import { readFileSync } from 'node:fs';
import { SkeinEngine, WorkflowBuilder } from '@skein/core';
import { startToolBenchServer } from '@skein/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { toConvertedAnswer } from './answer/converted-answer.js';
import { ToolBenchClient } from './client/toolbench-client.js';
import type { ToolBenchQuery } from './functions/types.js';
import { createReActLLMClient } from './llm/react-llm-client.js';
import {
  buildToolBenchSystemMessage,
  buildToolBenchUserMessage,
  toolBenchTaskDescription,
} from './prompt/system-message.js';
import { type AnswerFile, FIXTURES, readFixture } from './testing/fixtures.js';
import { toolsFromQuery } from './tools/tools-from-query.js';

// The whole adapter inside the engine: query 1073 of the StableToolBench fixtures, answered by a
// scripted ReAct model replaying the recorded trajectory, its tools calling the testkit's
// virtual-API server, and the finished thread exported in the benchmark's answer format.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

interface GoldenPrompt {
  readonly source: string;
  readonly beforeMessage: number;
  readonly prompt: string;
}

describe('a StableToolBench query answered by a Skein workflow', () => {
  it('replays the recorded trajectory, sends the reference prompts and exports the recorded answer', async () => {
    const queries = readFixture<(ToolBenchQuery & { query_id: number })[]>(FIXTURES.queries);
    const query = queries.find((q) => q.query_id === 1073)!;
    const recorded = readFixture<AnswerFile>(FIXTURES.cot1073);
    const trajectory = recorded.answer_generation.train_messages.at(-1)!;

    // The server answers each call with what the benchmark's server answered then.
    const observations = trajectory
      .filter((m) => m.role === 'function')
      .map((m) => JSON.parse(m.content ?? '{}'));
    const server = await startToolBenchServer({
      responses: () => observations.shift() ?? { error: 'no more' },
    });
    closers.push(() => server.close());

    // The model replays the recorded steps as ToolLLaMA text.
    const replies = trajectory
      .filter((m) => m.role === 'assistant' && m.function_call)
      .map(
        (m) =>
          `Thought: ${m.content ?? ''}\nAction: ${m.function_call!.name}\nAction Input: ${m.function_call!.arguments}`,
      );
    const prompts: string[] = [];
    const model = createReActLLMClient({
      complete: ({ prompt }) => {
        prompts.push(prompt);
        return replies.shift() ?? '';
      },
    });

    const tools = toolsFromQuery(query, {
      client: new ToolBenchClient({ url: server.url, key: 'test-key' }),
    });
    const engine = new SkeinEngine({ llm: model });
    engine.registerTools(tools);
    engine.registerWorkflow(
      new WorkflowBuilder('toolbench', '1')
        .initialTools(tools.map((t) => t.name))
        .start()
        .llm('agent', { maxToolRounds: 12 })
        .end('end')
        .chain('start', 'agent', 'end')
        .build(),
    );
    const calls: string[] = [];
    engine.events.on('tool:call', (e) => calls.push(e.name));
    // The recorded run's system and user messages (its system text names each tool with the
    // description from the tool's own file, which the query data does not carry).
    const [system, user] = trajectory;
    expect(user!.content).toBe(buildToolBenchUserMessage(query.query));
    expect(system!.content).toContain(
      buildToolBenchSystemMessage(toolBenchTaskDescription(query)).slice(0, 200),
    );
    const { thread, result } = await engine.run('toolbench', {
      messages: [
        { role: 'system', content: system!.content! },
        { role: 'user', content: user!.content! },
      ],
    });

    expect(result.status).toBe('COMPLETED');
    expect(calls).toEqual([
      'popularsitesforquery_for_keyword_analysis',
      'querykeywords_for_keyword_analysis',
    ]);
    // The full action name by default (the original design); the server keeps the API part.
    expect(server.requests.map((r) => r.body?.api_name)).toEqual([
      'popularsitesforquery_for_keyword_analysis',
      'querykeywords_for_keyword_analysis',
    ]);
    expect(server.requests.every((r) => r.body?.toolbench_key === 'test-key')).toBe(true);

    // The prompts before each recorded step are the reference inference code's, byte for byte.
    const golden = JSON.parse(
      readFileSync(
        new URL('./__fixtures__/toolllama-prompts.golden.json', import.meta.url),
        'utf8',
      ),
    ) as GoldenPrompt[];
    const forCot = golden.filter((g) => g.source === FIXTURES.cot1073);
    expect(prompts[0]).toBe(forCot.find((g) => g.beforeMessage === 2)!.prompt);
    expect(prompts[1]).toBe(forCot.find((g) => g.beforeMessage === 4)!.prompt);

    // The final answer, and the export the pass-rate evaluator reads.
    const finish = JSON.parse(recorded.answer_generation.final_answer) as { final_answer: string };
    expect(result.output).toBe(finish.final_answer);
    const exported = toConvertedAnswer({
      query: query.query,
      tools,
      messages: thread.conversation.getMessages(),
    });
    const converted = readFixture<
      Record<string, { answer: { final_answer: string }; available_tools: unknown }>
    >(FIXTURES.converted);
    expect(exported.answer.final_answer).toBe(converted['1073']!.answer.final_answer);
    expect(exported.available_tools).toEqual(converted['1073']!.available_tools);
    expect(exported.answer.method).toBe('CoT@1');
  });

  it('shows the model an unreachable server as a function response, and the thread goes on', async () => {
    const queries = readFixture<(ToolBenchQuery & { query_id: number })[]>(FIXTURES.queries);
    const query = queries.find((q) => q.query_id === 1073)!;
    const server = await startToolBenchServer();
    const url = server.url;
    await server.close();
    const replies = [
      'Thought: look it up\nAction: popularsitesforquery_for_keyword_analysis\nAction Input: {"q": "cakes"}',
      'Thought: no server\nAction: Finish\nAction Input: {"return_type": "give_up_and_restart"}',
    ];
    const prompts: string[] = [];
    const model = createReActLLMClient({
      complete: ({ prompt }) => {
        prompts.push(prompt);
        return replies.shift() ?? '';
      },
    });
    const tools = toolsFromQuery(query, { client: new ToolBenchClient({ url }) });
    const engine = new SkeinEngine({ llm: model });
    engine.registerTools(tools);
    engine.registerWorkflow(
      new WorkflowBuilder('toolbench', '1')
        .initialTools(tools.map((t) => t.name))
        .start()
        .llm('agent', { maxToolRounds: 4 })
        .end('end')
        .chain('start', 'agent', 'end')
        .build(),
    );
    const system = buildToolBenchSystemMessage(toolBenchTaskDescription(query));
    const { result } = await engine.run('toolbench', {
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: buildToolBenchUserMessage(query.query) },
      ],
    });
    expect(result.status).toBe('COMPLETED');
    // Before the fix: `Function: Error [TOOLBENCH_SERVER_UNREACHABLE]: Cannot reach …`.
    const turn = prompts[1]!.slice(
      prompts[1]!.lastIndexOf('\nFunction: ') + 1,
      -'\nAssistant:\n'.length,
    );
    expect(turn).toMatch(
      /^Function: \{"error": "Cannot reach the ToolBench server at [^"]*", "response": ""\}$/,
    );
    expect(turn).toContain(url);
  });
});
