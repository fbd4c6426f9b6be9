import { SkeinEmitter, SkeinEngine } from '@skein/core';
import { describe, expect, it } from 'vitest';
import { startMcpTools } from './mcp-tools.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the weather MCP server', () => {
  it('runs as a child process whose tool a workflow calls through @skein/interop', async () => {
    const mcp = await startMcpTools();
    try {
      expect(mcp.tools.map((t) => [t.name, t.source])).toEqual([
        ['weather_forecast', 'mcp:weather'],
      ]);
      expect(alive(mcp.pid)).toBe(true);
      const engine = new SkeinEngine();
      engine.registerTools(mcp.tools);
      engine.registerWorkflow({
        id: 'forecast',
        version: '1',
        nodes: [
          { id: 'start', type: 'START' },
          {
            id: 'ask',
            type: 'TOOL',
            config: { tool: 'weather_forecast', args: { city: 'Kyoto', month: 'May' } },
          },
          { id: 'end', type: 'END', config: { output: 'nodes.ask' } },
        ],
        edges: [
          { from: 'start', to: 'ask' },
          { from: 'ask', to: 'end' },
        ],
      });
      const { result } = await engine.run('forecast');
      expect(result.status).toBe('COMPLETED');
      expect(result.output).toBe(
        'Kyoto in May: 25 °C average high, 10 rainy days; warm, fresh green.',
      );
      // Called directly, the result carries the server's structured content, its process id
      // included: the call crossed the process boundary.
      const context = {
        threadId: 't',
        nodeId: 'n',
        toolCallId: 'c',
        idempotencyKey: 't:n:c',
        signal: new AbortController().signal,
        variables: {},
        emitter: new SkeinEmitter(),
      };
      const forecast = mcp.tools[0]!;
      const direct = await forecast.execute({ city: 'Lisbon', month: 'June' } as never, context);
      expect(direct).toMatchObject({
        isError: false,
        data: { structuredContent: { city: 'Lisbon', highC: 26, servedByPid: mcp.pid } },
      });
      // A city the server does not know is an error result, not a throw.
      const unknown = await forecast.execute({ city: 'Oslo', month: 'May' } as never, context);
      expect(unknown).toMatchObject({ isError: true, content: 'no climate data for "Oslo"' });
    } finally {
      await mcp.close();
    }
    expect(alive(mcp.pid)).toBe(false);
  });
});
