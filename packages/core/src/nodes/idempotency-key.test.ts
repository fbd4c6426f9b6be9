import { describe, expect, it } from 'vitest';
import { SkeinEngine } from '../engine/skein-engine.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { Tool } from '../tools/tool.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';

function run(callIds: [string, string]) {
  const keys: string[] = [];
  const note: Tool = {
    name: 'note',
    description: 'notes its key',
    parameters: { type: 'object', properties: {} },
    execute: (_args, ctx) => {
      keys.push(ctx.idempotencyKey!);
      return 'ok';
    },
  };
  const engine = new SkeinEngine({
    llm: new ScriptedLLMClient([
      {
        toolCalls: [
          { id: callIds[0], name: 'note', arguments: {} },
          { id: callIds[1], name: 'note', arguments: {} },
        ],
      },
      { content: 'done' },
    ]),
  });
  engine.registerTool(note);
  engine.registerWorkflow(
    new WorkflowBuilder('w', '1')
      .initialTools(['note'])
      .start()
      .llm('ask', { prompt: 'go', toolConcurrency: 1 })
      .end()
      .chain('start', 'ask', 'end')
      .build(),
  );
  return engine.run('w', { threadId: 'T' }).then(() => keys);
}

describe('idempotency keys of tool calls', () => {
  it('name the thread, node, step, round and position, not the provider-made call id', async () => {
    const first = await run(['call_abc', 'call_def']);
    const again = await run(['call_xyz', 'call_uvw']);
    expect(first).toEqual(['T:ask:1:0:0', 'T:ask:1:0:1']);
    expect(again).toEqual(first);
  });
});
