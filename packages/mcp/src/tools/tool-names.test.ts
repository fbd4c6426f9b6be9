import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SkeinEngine, WorkflowBuilder } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { describe, expect, it } from 'vitest';
import { createMcpServer } from '../server/create-mcp-server.js';
import { connectInMemory } from '../test-support/connect.js';
import { ToolNames } from './tool-names.js';

const AWKWARD = ['travel.assistant/v2', `long-${'x'.repeat(80)}`, 'plain_name', 'ünïcode flow'];

function echo(id: string) {
  return new WorkflowBuilder(id, '1')
    .start()
    .llm('say')
    .end('end')
    .chain('start', 'say', 'end')
    .build();
}

describe('tool names', () => {
  it('keeps ids that fit [a-zA-Z0-9_-]{1,64} and encodes the others reversibly', () => {
    const names = new ToolNames(AWKWARD);
    expect(names.nameOf('plain_name')).toBe('plain_name');
    for (const id of AWKWARD) {
      const name = names.nameOf(id);
      expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(names.workflowOf(name)).toBe(id);
    }
    expect(names.nameOf('travel.assistant/v2')).toMatch(/^travel_assistant_v2_[0-9a-f]{5}$/);
    // The same set gives the same names in any order: a restarted server names tools alike.
    const again = new ToolNames([...AWKWARD].reverse());
    for (const id of AWKWARD) expect(again.nameOf(id)).toBe(names.nameOf(id));
    expect(names.workflowOf('travel.assistant/v2')).toBeUndefined();
  });

  it('refuses a workflow id that would take the name of the server’s own tools', () => {
    expect(() => new ToolNames(['resume_thread'])).toThrow(
      /Workflow "resume_thread" would be offered as "resume_thread"/,
    );
  });

  it('a client calls an encoded tool and the right workflow runs', async () => {
    const engine = new SkeinEngine({ llm: new ScriptedLLMClient(() => ({ content: 'hi' })) });
    for (const id of AWKWARD) engine.registerWorkflow(echo(id));
    const client = await connectInMemory(createMcpServer(engine, { name: 't', version: '1' }));
    const { tools } = await client.listTools();
    const encoded = tools.find((t) => t.name.startsWith('travel_assistant_v2_'))!;
    const result = (await client.callTool({ name: encoded.name, arguments: {} })) as CallToolResult;
    expect(result.structuredContent).toMatchObject({
      workflowId: 'travel.assistant/v2',
      status: 'COMPLETED',
    });
  });
});
