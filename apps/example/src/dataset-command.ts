import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SkeinEngine, type Tool, WorkflowBuilder } from '@skein/core';
import { formatSummary, type RunSummary, runDataset } from '@skein/runner';
import { SqliteCheckpointStore } from '@skein/store-sqlite';
import { startToolBenchServer } from '@skein/testkit';
import {
  buildToolBenchSystemMessage,
  buildToolBenchUserMessage,
  createReActLLMClient,
  ToolBenchClient,
  type ToolBenchQuery,
  toolBenchTaskDescription,
  toolsFromQuery,
} from '@skein/toolbench';

// A dataset run: the three queries of a StableToolBench G1 split, each in its own thread, with
// an embedded ToolLLaMA-style model (ReAct text) calling the testkit's virtual-API server. The
// run folder gets results.jsonl, the split's converted answers (toolbench/G1_instruction.json,
// the pass-rate evaluator's input) and fine-tuning lines of the same threads (distillation).
// The threads are checkpointed in SQLite: run it again on the same folder and it resumes.

const SPLIT = 'G1_instruction';

/** The embedded model: one call of the first function it is offered, then Finish. */
function reactModel(prompt: string): string {
  const observations = prompt.split('\nFunction: ').length - 1;
  const offered = [...prompt.matchAll(/"name":\s*"([^"]+)"/g)]
    .map((m) => m[1]!)
    .filter((name) => name !== 'Finish');
  if (observations === 0 && offered.length > 0)
    return `Thought: I will start with ${offered[0]}.\nAction: ${offered[0]}\nAction Input: {}`;
  return 'Thought: I have what I need.\nAction: Finish\nAction Input: {"return_type": "give_answer", "final_answer": "Here is what the API returned."}';
}

function splitQueries(): ToolBenchQuery[] {
  const file = new URL('./__fixtures__/toolbench/G1_instruction.json', import.meta.url);
  return JSON.parse(readFileSync(file, 'utf8')) as ToolBenchQuery[];
}

/** Where the run writes its results and exports, inside `out`. */
export function runFolder(out: string): string {
  return join(out, 'run');
}

/** Runs the split into `out`; resolves to the run's summary. */
export async function runToolBenchDataset(
  out: string,
  signal: AbortSignal,
  onLine: (line: string) => void = () => undefined,
): Promise<RunSummary> {
  mkdirSync(out, { recursive: true });
  const queries = splitQueries();
  // The input as a user would have it: one query per line.
  const input = join(out, 'input.jsonl');
  writeFileSync(input, `${queries.map((q) => JSON.stringify(q)).join('\n')}\n`);
  const server = await startToolBenchServer({
    responses: (call) => ({
      error: '',
      response: JSON.stringify({ api: call.body.api_name, ok: true }),
    }),
  });
  const store = new SqliteCheckpointStore({ filename: join(out, 'threads.db') });
  try {
    const client = new ToolBenchClient({ url: server.url, key: 'demo-key', timeoutMs: 10_000 });
    const toolsOf = new Map<string, Tool[]>();
    const all = new Map<string, Tool>();
    for (const query of queries) {
      const tools = toolsFromQuery(query, { client });
      toolsOf.set(String(query.query_id), tools);
      for (const tool of tools) all.set(tool.name, tool);
    }
    const engine = new SkeinEngine({
      llm: createReActLLMClient({
        complete: ({ prompt }) => reactModel(prompt),
        name: 'embedded-toolllama',
      }),
      store,
    });
    // Every tool of the split is registered (a resumed thread finds its tools by name); each
    // thread is given only its own query's tools.
    engine.registerTools([...all.values()]);
    engine.registerWorkflow(
      new WorkflowBuilder('toolbench', '1')
        .start()
        .llm('agent', { maxToolRounds: 8 })
        .end('end')
        .chain('start', 'agent', 'end')
        .build(),
    );
    return await runDataset({
      engine,
      workflowId: 'toolbench',
      input,
      itemId: 'query_id',
      threadOptions: (item) => {
        const query = item as ToolBenchQuery;
        return {
          messages: [
            {
              role: 'system',
              content: buildToolBenchSystemMessage(toolBenchTaskDescription(query)),
            },
            { role: 'user', content: buildToolBenchUserMessage(query.query) },
          ],
        };
      },
      prepareThread: (thread, item) =>
        thread.addDynamicTools(toolsOf.get(String((item as ToolBenchQuery).query_id)) ?? []),
      // The run's own folder: the runner writes only into a folder it made (the input and the
      // store stay beside it).
      output: runFolder(out),
      runId: `toolbench-${SPLIT}`,
      concurrency: 3,
      signal,
      exports: { toolBench: { split: SPLIT }, fineTuning: true },
      onProgress: (p) =>
        onLine(`${p.last.itemId} ${p.last.status} (${p.done + p.skipped}/${p.total ?? '?'})`),
    });
  } finally {
    store.close();
    await server.close();
  }
}

/** The command: runs the split and prints the summary table. */
export async function runDatasetCommand(out: string, signal: AbortSignal): Promise<number> {
  const summary = await runToolBenchDataset(out, signal, (line) =>
    process.stderr.write(`${line}\n`),
  );
  process.stdout.write(`${formatSummary(summary)}\n`);
  process.stdout.write(
    `answers: ${join(runFolder(out), 'toolbench', `${SPLIT}.json`)}\nfine-tuning lines: ${join(runFolder(out), 'finetune.jsonl')}\n`,
  );
  return summary.finished ? 0 : 130;
}
