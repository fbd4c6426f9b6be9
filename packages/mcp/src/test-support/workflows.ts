// Workflows and engines the tests serve: a greeting (variables, an END output), a trip that asks
// a question, a booking whose tool needs approval, and a model that never answers (cancel).
import {
  defineTool,
  SkeinEngine as Engine,
  type SkeinEngine,
  type SkeinEngineOptions,
  WorkflowBuilder,
} from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import type { LLMRequest } from '@skein/spec';
import { contentText } from '@skein/spec';

/** The model: answers by what the last message asks, so any number of threads can share it. */
function scriptedModel(): ScriptedLLMClient {
  return new ScriptedLLMClient((request: LLMRequest) => {
    const last = request.messages.at(-1);
    const text = contentText(last?.content ?? '');
    if (text.includes('HANG')) return { hang: true };
    if (last?.role === 'tool') return { content: `Done: ${text}` };
    if (text.startsWith('Book '))
      return {
        toolCalls: [{ id: 'call_book', name: 'book_flight', arguments: { city: text.slice(5) } }],
      };
    const greet = /^Greet (\w+) (\w+)/.exec(text);
    if (greet) return { content: `${greet[2] === 'warm' ? 'Dear' : 'Hello'} ${greet[1]}!` };
    return { content: `Plan for ${text}` };
  });
}

function registerWorkflows(engine: SkeinEngine): void {
  engine.registerTool(
    defineTool({
      name: 'book_flight',
      description: 'Books a flight',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      needsApproval: true,
      execute: ({ city }: { city: string }) => `booked to ${city}`,
    }),
  );
  engine.registerWorkflow(
    new WorkflowBuilder('greet', '1')
      .describe({ name: 'Greeter', description: 'Greets someone by name' })
      .variables({
        schema: {
          type: 'object',
          properties: {
            name: { type: 'string', maxLength: 40 },
            tone: { enum: ['warm', 'plain'] },
          },
          required: ['name', 'tone'],
          additionalProperties: false,
        },
        // Defaults must satisfy the schema alone, so each required variable has one.
        defaults: { name: 'friend', tone: 'plain' },
      })
      .start()
      .llm(
        'reply',
        { prompt: 'Greet {{ vars.name }} {{ vars.tone }}', outputVariable: 'greeting' },
        { name: 'Write the greeting' },
      )
      .end('end', { output: '[vars.name, vars.greeting]' })
      .chain('start', 'reply', 'end')
      .build(),
  );
  engine.registerWorkflow(
    new WorkflowBuilder('trip', '1')
      .describe({ description: 'Plans a trip after asking where to' })
      .start()
      .userInteraction('where', { prompt: 'Which city?', variable: 'city' })
      .llm('plan', { outputVariable: 'plan' })
      .end('end', { output: 'vars.plan' })
      .chain('start', 'where', 'plan', 'end')
      .build(),
  );
  engine.registerWorkflow(
    new WorkflowBuilder('booking', '1')
      .start()
      .llm('book', { tools: ['book_flight'], outputVariable: 'result' })
      .end('end', { output: 'vars.result' })
      .chain('start', 'book', 'end')
      .build(),
  );
}

/** An engine with the test workflows and the scripted model. */
export function testEngine(options: SkeinEngineOptions = {}): SkeinEngine {
  const engine = new Engine({ llm: scriptedModel(), ...options });
  registerWorkflows(engine);
  return engine;
}
