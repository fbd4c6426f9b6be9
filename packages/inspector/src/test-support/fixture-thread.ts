import type { CheckpointStore, Guardrail, ThreadResult } from '@skein/core';
import { SkeinEngine, WorkflowBuilder } from '@skein/core';
import { contentText } from '@skein/spec';
import { ScriptedLLMClient } from '@skein/testkit';

/** A message the page must show as text, never run. */
export const SCRIPT_MESSAGE = '<script>window.__pwned = true</script> done';

/** A node id the graph must show as text, never run. */
export const SCRIPT_NODE_ID = '<script>window.__pwned = true</script>';

/** Stops an answer that gives a secret away. */
const noSecrets: Guardrail = {
  stages: ['output'],
  check: (subject) =>
    subject.stage === 'output' && contentText(subject.message.content).includes('SECRET')
      ? { action: 'trip', reason: 'the answer gives the vault code away' }
      : { action: 'pass' },
};

/**
 * A trip workflow that touches everything the inspector shows: initial tools (the description
 * message), a round of two tool calls, one of them failing, a CLEAR that starts a new batch,
 * a model answer holding `<script>`, then a pause for the user. A second workflow, `pay`,
 * pauses for the approval of a tool call. A third, `loop`, goes round a ROUTE twice through a
 * node whose id holds `<script>`; `legs` runs a MAP of two branches, each a child thread;
 * `guarded` is stopped by its output guardrail (`noSecrets`).
 */
export function createFixtureEngine(store: CheckpointStore): SkeinEngine {
  // Answers by the last message, so any number of threads can share the engine.
  const llm = new ScriptedLLMClient((request) => {
    const last = request.messages.at(-1)!;
    if (last.role === 'tool' && last.name === 'charge') return { content: 'Paid.' };
    if (last.content === 'Pay the hotel.')
      return { toolCalls: [{ name: 'charge', arguments: { amount: 120 } }] };
    if (last.role === 'tool')
      return {
        content: 'Lisbon is sunny; no flights found.',
        usage: { promptTokens: 200, completionTokens: 12 },
      };
    if (last.content === 'Tell me the vault code.') return { content: 'The SECRET code is 4711.' };
    if (last.content === 'Summarise.')
      return { content: SCRIPT_MESSAGE, usage: { promptTokens: 60, completionTokens: 9 } };
    if (contentText(last.content).startsWith('Book it'))
      return {
        content: 'Booked for {"city":"Lisbon"}.',
        usage: { promptTokens: 80, completionTokens: 7 },
      };
    return {
      toolCalls: [
        { id: 'call_3_0', name: 'weather', arguments: { city: 'Lisbon' } },
        { id: 'call_3_1', name: 'flights', arguments: { to: 'Nowhere' } },
      ],
      usage: { promptTokens: 120, completionTokens: 30 },
    };
  });
  const engine = new SkeinEngine({ llm, store, guardrails: { noSecrets } });
  engine.registerTool({
    name: 'weather',
    description: 'Weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: ({ city }) => ({ city, sky: 'sunny' }),
  });
  engine.registerTool({
    name: 'flights',
    description: 'Flights to a city',
    parameters: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
    execute: () => {
      throw new Error('no route to Nowhere');
    },
  });
  engine.registerTool({
    name: 'charge',
    description: 'Charges the card',
    parameters: { type: 'object', properties: { amount: { type: 'number' } } },
    needsApproval: true,
    execute: ({ amount }) => ({ charged: amount }),
  });
  // Pauses for an approval of the `charge` call.
  engine.registerWorkflow(
    new WorkflowBuilder('pay', '1')
      .start()
      .llm('pay', { prompt: 'Pay the hotel.', tools: ['charge'] })
      .end('end')
      .chain('start', 'pay', 'end')
      .build(),
  );
  engine.registerWorkflow(
    new WorkflowBuilder('loop', '1')
      .variables({ defaults: { n: 0 } })
      .start()
      .variable(SCRIPT_NODE_ID, {
        assign: { n: 'vars.n + 1' },
        message: { role: 'user', content: 'Round {{ vars.n }}' },
      })
      .route('again')
      .end('end')
      .chain('start', SCRIPT_NODE_ID, 'again')
      .edge('again', SCRIPT_NODE_ID, { when: 'vars.n < 2', label: 'n < 2' })
      .edge('again', 'end', { default: true })
      .build(),
  );
  engine.registerWorkflow(
    new WorkflowBuilder('legs', '1')
      .variables({ defaults: { legs: ['Lisbon', 'Porto'] } })
      .start()
      .map('each', { items: 'vars.legs', itemVariable: 'leg', start: 'leg', join: 'gather' })
      .variable('leg', { message: { role: 'user', content: 'Leg to {{ vars.leg }}' } })
      .join('gather', { output: 'vars.leg' })
      .end('end')
      .chain('start', 'each')
      .chain('leg', 'gather', 'end')
      .build(),
  );
  engine.registerWorkflow({
    ...new WorkflowBuilder('guarded', '1')
      .start()
      .llm('answer', { prompt: 'Tell me the vault code.' })
      .end('end')
      .chain('start', 'answer', 'end')
      .build(),
    guardrails: { output: ['noSecrets'] },
  });
  engine.registerWorkflow(
    new WorkflowBuilder('trip', '1')
      .initialTools(['weather', 'flights'])
      .start()
      .llm('plan', { systemPrompt: 'You plan trips.', prompt: 'Where is it sunny?' })
      .contextProcessor('reset', [{ type: 'CLEAR', keepSystemMessage: true }])
      .llm('summary', { prompt: 'Summarise.' })
      .userInteraction('confirm', { prompt: 'Book it?', variable: 'answer' })
      .llm('book', { prompt: 'Book it: {{ vars.answer }}' })
      .end('end')
      .chain('start', 'plan', 'reset', 'summary', 'confirm', 'book', 'end')
      .build(),
  );
  return engine;
}

/** Runs the fixture workflow until it pauses at `confirm`. */
export async function runFixtureThread(
  engine: SkeinEngine,
  threadId = 'trip-1',
): Promise<ThreadResult> {
  const { result } = await engine.run('trip', { threadId });
  return result;
}

/** Runs `guarded` until its output guardrail stops it (the thread ends FAILED). */
export async function runGuardedThread(
  engine: SkeinEngine,
  threadId = 'stopped-1',
): Promise<ThreadResult> {
  const { result } = await engine.run('guarded', { threadId });
  return result;
}
