// Issue 45's compaction benchmark. Tokens: the same 1,000-turn conversation (a tool call in two
// turns of three) run twice in memory, once with `compact` (an 8,000-token window, summarising at
// 75 %) and once kept under the window the way a chat without summaries does, by a trigger that
// truncates; every request is counted with o200k, the summary calls apart. Per-step cost: two
// threads of 1,000 turns on one SQLite file, one with about 20 summaries in its history and one
// with none, then further turns alternating between them, each timed. Usage:
//
//   pnpm --filter @skein/bench compaction [turns=1000] [timed=100]
//
// The engines count tokens with o200k (gpt-tokenizer); BENCH_TOKENS=estimate uses the
// conversation's default estimate instead (what a thread pays to count its view once per load).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { o200kTokenCounter } from '@skein/conversation/tokenizer';
import {
  type ChatWorkflowOptions,
  type CheckpointStore,
  chatWorkflow,
  contentText,
  InMemoryCheckpointStore,
  type LLMRequest,
  SkeinEngine,
  type WorkflowDefinition,
} from '@skein/core';
import { ScriptedLLMClient, type ScriptedResponse } from '@skein/core/testing';

import { SqliteCheckpointStore } from '@skein/store-sqlite';

const [turnsArg = '1000', timedArg = '100'] = process.argv.slice(2).filter((a) => a !== '--');
const TURNS = Number(turnsArg);
const TIMED = Number(timedArg);
const WINDOW = 8_000;
const estimate = process.env.BENCH_TOKENS === 'estimate';

interface Tally {
  requests: number;
  prompt: number;
  summaryCalls: number;
  summaryPrompt: number;
  summaryCompletion: number;
}

const newTally = (): Tally => ({
  requests: 0,
  prompt: 0,
  summaryCalls: 0,
  summaryPrompt: 0,
  summaryCompletion: 0,
});

const tokensOf = (request: LLMRequest) =>
  request.messages.reduce((sum, m) => sum + o200kTokenCounter(m), 0) +
  o200kTokenCounter({ role: 'system', content: JSON.stringify(request.tools) });

/** The archive conversation's model: looks a record up in two turns of three, then answers. */
function archiveModel(tally: Tally | undefined) {
  return (request: LLMRequest): ScriptedResponse => {
    if (request.purpose === 'summary') {
      const content = `The user went through the archive turn by turn; every record looked up was in good condition (summary ${(tally?.summaryCalls ?? 0) + 1}).`;
      if (tally) {
        tally.summaryCalls++;
        tally.summaryPrompt += tokensOf(request);
        tally.summaryCompletion += o200kTokenCounter({ role: 'assistant', content });
      }
      return { content };
    }
    if (tally) {
      tally.requests++;
      tally.prompt += tokensOf(request);
    }
    const last = request.messages.at(-1)!;
    const turn = Number(/turn (\d+)/.exec(contentText(last.content))?.[1] ?? 0);
    if (last.role === 'user' && turn % 3 !== 0)
      return { toolCalls: [{ name: 'lookup', arguments: { turn } }] };
    return { content: `Noted, turn ${turn} is on file.` };
  };
}

function archiveEngine(store: CheckpointStore, tally?: Tally): SkeinEngine {
  const engine = new SkeinEngine({
    llm: new ScriptedLLMClient([archiveModel(tally)], {
      whenExhausted: 'repeat-last',
      stream: false,
    }),
    store,
    ...(estimate ? {} : { tokenCounter: o200kTokenCounter }),
  });
  engine.registerTool({
    name: 'lookup',
    description: 'Looks up the archive record of a turn',
    parameters: { type: 'object', properties: { turn: { type: 'number' } }, required: ['turn'] },
    execute: ({ turn }: { turn: number }) =>
      `Record ${turn}: shelf ${turn % 37}, box ${turn % 11}; condition good; notes: ${'catalogued and cross-referenced '.repeat(4)}`,
  });
  return engine;
}

const chat = (options: Partial<ChatWorkflowOptions> = {}): WorkflowDefinition =>
  chatWorkflow({
    systemPrompt: 'You are the archive assistant.',
    initialTools: ['lookup'],
    ...options,
  });

/** Kept under the window without summaries: a trigger truncates to half of it when it passes 75 %. */
const truncating = (): WorkflowDefinition => ({
  ...chat(),
  triggers: [
    {
      id: 'truncate',
      when: { type: 'visible-tokens-over', tokens: WINDOW * 0.75 },
      action: { type: 'context', operation: { type: 'TRUNCATE', maxTokens: WINDOW / 2 } },
    },
  ],
});

const ask = (turn: number) =>
  `This is turn ${turn}. Please check the archive record for this turn and tell me where it is filed.`;

async function runTurns(engine: SkeinEngine, threadId: string, from: number, to: number) {
  for (let turn = from; turn <= to; turn++) {
    const { result } = await engine.send(threadId, ask(turn));
    if (result.status !== 'COMPLETED')
      throw new Error(`${threadId} turn ${turn}: ${result.status}`);
  }
}

async function tokens(): Promise<void> {
  const rows: [string, Tally][] = [];
  for (const [name, workflow] of [
    ['compact (summaries)', chat({ compact: { contextWindow: WINDOW, fraction: 0.75 } })],
    ['truncate (no summaries)', truncating()],
  ] as const) {
    const tally = newTally();
    const engine = archiveEngine(new InMemoryCheckpointStore(), tally);
    engine.registerWorkflow(workflow);
    await runTurns(engine, 'tokens', 1, TURNS);
    rows.push([name, tally]);
  }
  const base = rows[1]![1];
  const all = (t: Tally) => t.prompt + t.summaryPrompt + t.summaryCompletion;
  console.log(`\nTokens sent over ${TURNS} turns (o200k, prompts; summaries' answers added):`);
  for (const [name, t] of rows)
    console.log(
      `  ${name.padEnd(24)} ${t.requests} turn calls ${t.prompt.toLocaleString('en')} + ${t.summaryCalls} summaries ${(t.summaryPrompt + t.summaryCompletion).toLocaleString('en')} = ${all(t).toLocaleString('en')} (${(all(t) / all(base)).toFixed(2)}x; summaries ${((100 * (t.summaryPrompt + t.summaryCompletion)) / all(t)).toFixed(1)} %)`,
    );
}

async function perStep(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'skein-compaction-'));
  try {
    const store = new SqliteCheckpointStore({ filename: join(dir, 'threads.db') });
    const tally = newTally();
    const summarising = archiveEngine(store, tally);
    // About 20 summaries over 1,000 turns: one each time the view passes 3,500 tokens.
    summarising.registerWorkflow(chat({ compact: { threshold: 3_500 } }));
    await runTurns(summarising, 'with-summaries', 1, TURNS);
    const plain = archiveEngine(store);
    plain.registerWorkflow(chat());
    await runTurns(plain, 'without', 1, TURNS);
    const timings = { 'with-summaries': [] as number[], without: [] as number[] };
    // totalSteps counts the thread's steps so far: a turn's own are the difference.
    const steps = { 'with-summaries': 0, without: 0 };
    for (let i = 0; i <= TIMED; i++)
      for (const [engine, threadId] of [
        [summarising, 'with-summaries'],
        [plain, 'without'],
      ] as const) {
        const started = performance.now();
        const { result } = await engine.send(threadId, ask(TURNS + 1 + i));
        const ms = performance.now() - started;
        // Turn 0 only reads the step count.
        if (i > 0) timings[threadId].push(ms / (result.totalSteps - steps[threadId]));
        steps[threadId] = result.totalSteps;
      }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const a = median(timings['with-summaries']);
    const b = median(timings.without);
    console.log(
      `\nPer step after ${TURNS} turns (SQLite, median of ${TIMED} turns each, alternating):\n  with ${tally.summaryCalls} summaries ${a.toFixed(3)} ms/step, with none ${b.toFixed(3)} ms/step (${(a / b).toFixed(2)}x)`,
    );
    store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await tokens();
await perStep();
