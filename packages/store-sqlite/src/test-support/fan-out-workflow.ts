import { appendFileSync } from 'node:fs';
import { type CheckpointStore, SkeinEngine, type WorkflowDefinition } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';

// A MAP over cities: each branch asks the model, which calls `lookup` once (the tool appends the
// city to `callsFile`, so calls are counted across processes) and then answers.

export const CITIES = ['Oslo', 'Rome', 'Lima', 'Pune', 'Slow'];

const workflow: WorkflowDefinition = {
  id: 'compare',
  version: '1',
  initialTools: ['lookup'],
  nodes: [
    { id: 'start', type: 'START' },
    {
      id: 'each',
      type: 'MAP',
      config: { items: 'vars.cities', start: 'ask', join: 'join', maxConcurrency: 5 },
    },
    { id: 'ask', type: 'LLM', config: { prompt: 'City: {{ vars.item }}' } },
    { id: 'join', type: 'JOIN', config: { outputVariable: 'answers' } },
    { id: 'end', type: 'END', config: { output: 'vars.answers' } },
  ],
  edges: [
    { from: 'start', to: 'each' },
    { from: 'ask', to: 'join' },
    { from: 'join', to: 'end' },
  ],
};

export function fanOutEngine(
  store: CheckpointStore,
  options: { callsFile: string; hang?: string; onHang?: () => void },
): SkeinEngine {
  const llm = new ScriptedLLMClient((request) => {
    const city = /City: (\w+)/.exec(request.messages.map((m) => m.content).join('\n'))?.[1];
    if (request.messages.at(-1)?.role === 'tool') return { content: `${city}: mild` };
    if (city === options.hang) {
      options.onHang?.();
      return { hang: true };
    }
    return { toolCalls: [{ id: `look_${city}`, name: 'lookup', arguments: { city } }] };
  });
  const engine = new SkeinEngine({ llm, store });
  engine.registerTool({
    name: 'lookup',
    description: 'Looks a city up',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: ({ city }: { city: string }) => {
      appendFileSync(options.callsFile, `${city}\n`);
      return `${city} found`;
    },
  });
  engine.registerWorkflow(workflow);
  return engine;
}
