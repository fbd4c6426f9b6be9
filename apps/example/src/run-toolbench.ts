import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SkeinEngine, WorkflowBuilder } from '@skein/core';
import { startToolBenchServer } from '@skein/testkit';
import {
  buildToolBenchSystemMessage,
  buildToolBenchUserMessage,
  createReActLLMClient,
  ToolBenchClient,
  type ToolBenchQuery,
  toConvertedAnswer,
  toolBenchTaskDescription,
  toolsFromQuery,
} from '@skein/toolbench';
import pc from 'picocolors';
import { attachRenderer, printSummary } from './render.js';

// A ToolLLaMA-style model answers in ReAct text (Thought / Action / Action Input); the adapter
// turns it into tool calls that reach a StableToolBench virtual-API server (here the testkit's,
// on 127.0.0.1), and the finished thread is exported in the benchmark's answer format.

const CANNED: Record<string, unknown> = {
  daily_forecast: { city: 'Lisbon', day: 'Monday', sky: 'sunny', min_c: 16, max_c: 24 },
  opening_hours: { monument: 'Belém Tower', day: 'Monday', open: false, note: 'closed on Mondays' },
};

/** The replies a ToolLLaMA model would write, one per completion, chosen by the prompt so far. */
function reactModel(prompt: string): string {
  const observations = prompt.split('\nFunction: ').length - 1;
  if (observations === 0)
    return 'Thought: I need the forecast for Lisbon on Monday.\nAction: daily_forecast_for_city_weather\nAction Input: {"city": "Lisbon", "day": "Monday"}';
  if (observations === 1)
    return 'Thought: Now the opening hours of the Belém Tower.\nAction: opening_hours_for_monument_guide\nAction Input: {"monument": "Belém Tower", "day": "Monday"}';
  return 'Thought: I have both answers.\nAction: Finish\nAction Input: {"return_type": "give_answer", "final_answer": "Monday in Lisbon will be sunny, 16 to 24 °C. The Belém Tower is closed on Mondays, so plan it for another day."}';
}

export async function runToolBench(out: string, signal: AbortSignal): Promise<number> {
  const query = JSON.parse(
    readFileSync(new URL('../data/toolbench-query.json', import.meta.url), 'utf8'),
  ) as ToolBenchQuery;
  const server = await startToolBenchServer({
    responses: (call) => ({
      error: '',
      response: JSON.stringify(CANNED[call.body.api_name] ?? {}),
    }),
  });
  try {
    const tools = toolsFromQuery(query, {
      client: new ToolBenchClient({ url: server.url, key: 'demo-key', timeoutMs: 10_000 }),
    });
    const llm = createReActLLMClient({
      complete: ({ prompt }) => reactModel(prompt),
      name: 'scripted-toolllama',
    });
    const engine = new SkeinEngine({ llm });
    engine.registerTools(tools);
    engine.registerWorkflow(
      new WorkflowBuilder('toolbench', '1')
        .initialTools(tools.map((t) => t.name))
        .start()
        .llm('agent', { maxToolRounds: 8 })
        .end('end')
        .chain('start', 'agent', 'end')
        .build(),
    );
    const stats = attachRenderer(engine, {
      nodeNames: new Map([['agent', 'ToolLLaMA agent (ReAct)']]),
    });
    process.stdout.write(
      `${pc.bold('StableToolBench query')}  ${query.query}\n${pc.dim(`virtual-API server at ${server.url}`)}\n\n`,
    );
    const { thread, result } = await engine.run('toolbench', {
      signal,
      messages: [
        { role: 'system', content: buildToolBenchSystemMessage(toolBenchTaskDescription(query)) },
        { role: 'user', content: buildToolBenchUserMessage(query.query) },
      ],
    });
    const answer = toConvertedAnswer({
      query: query.query,
      tools,
      messages: thread.conversation.getMessages(),
    });
    mkdirSync(out, { recursive: true });
    const file = join(out, 'toolbench-answer.json');
    writeFileSync(file, `${JSON.stringify({ [String(query.query_id)]: answer }, null, 2)}\n`);
    printSummary([
      ['status', result.status],
      ['final answer', String(result.output ?? '—')],
      ['server calls', server.requests.map((r) => r.body?.api_name).join(', ')],
      ['steps', String(stats.steps)],
      ['answer file', `${file} (converted-answer format, for the pass-rate evaluator)`],
    ]);
    return result.status === 'COMPLETED' ? 0 : 1;
  } finally {
    await server.close();
  }
}
