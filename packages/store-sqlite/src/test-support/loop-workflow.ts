import { type CheckpointStore, SkeinEngine, type Tool, WorkflowBuilder } from '@skein/core';
import { ScriptedLLMClient, type ScriptFunction } from '@skein/core/testing';
import { contentText } from '@skein/spec';

// A long workflow for the crash and multi-process tests: `iterations` rounds of
// tick (VARIABLE + user message) -> think (LLM, a tool call every third round) -> trim
// (CONTEXT_PROCESSOR, a log entry) -> loop (ROUTE). Four nodes and two to four messages a round.

export interface LoopOptions {
  readonly iterations: number;
  /** Every `slowEvery`th round the model takes `slowMs` to answer (default: never). */
  readonly slowMs?: number;
  readonly slowEvery?: number;
  /** Called as a slow model call starts, before its delay. */
  readonly onSlowCall?: (round: number) => void;
}

const square: Tool<{ n: number }> = {
  name: 'square',
  description: 'Squares a number',
  parameters: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
  execute: ({ n }) => ({ n, square: n * n }),
};

/** A pure function of what the model sees (plus a delay), so a resumed run answers the same. */
function loopModel(options: LoopOptions): ScriptFunction {
  return (request) => {
    const last = request.messages.at(-1)!;
    if (last.role === 'tool') {
      const result = JSON.parse(contentText(last.content)) as { n: number; square: number };
      return { content: `square of ${result.n} is ${result.square}` };
    }
    const prompt = request.messages.findLast((m) => m.role === 'user');
    const round = Number(/round (\d+)/.exec(contentText(prompt?.content ?? ''))?.[1] ?? 0);
    const slow = options.slowMs !== undefined && round % (options.slowEvery ?? 1) === 0;
    if (slow) options.onSlowCall?.(round);
    const delay = slow ? { delayMs: options.slowMs } : {};
    if (round % 3 === 0)
      return { ...delay, toolCalls: [{ name: 'square', arguments: { n: round } }] };
    return { ...delay, content: `ack ${round}` };
  };
}

function loopWorkflow(iterations: number) {
  return new WorkflowBuilder('loop', '1')
    .initialTools(['square'])
    .variables({ defaults: { n: 0 } })
    .start()
    .variable('tick', {
      assign: { n: 'vars.n + 1' },
      message: { role: 'user', content: 'round {{ vars.n }}' },
    })
    .llm('think', { systemPrompt: 'Count with me.' })
    .contextProcessor('trim', [{ type: 'TRUNCATE', keep: 'last', count: 6 }])
    .route('loop')
    .end('end', { output: 'nodes.think' })
    .chain('start', 'tick', 'think', 'trim', 'loop')
    .edge('loop', 'tick', { when: `vars.n < ${iterations}` })
    .edge('loop', 'end')
    .build();
}

/** Nodes a whole run executes: start, four per round, end. */
export function loopSteps(iterations: number): number {
  return 2 + 4 * iterations;
}

export function loopEngine(store: CheckpointStore, options: LoopOptions): SkeinEngine {
  const engine = new SkeinEngine({ llm: new ScriptedLLMClient(loopModel(options)), store });
  engine.registerTool(square);
  engine.registerWorkflow(loopWorkflow(options.iterations));
  return engine;
}
