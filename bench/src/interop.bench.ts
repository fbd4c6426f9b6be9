import { type Tool, ToolRegistry } from '@skein/core';
import { registerTools } from '@skein/interop';
import { fromMcpClient, type McpClient } from '@skein/interop/mcp';
import { type BenchRow, measure } from './harness.js';
import type { BenchSuite } from './suite.js';

const SUITE = 'interop';
const PAGE_SIZE = 50;

function makeTools(count: number, source: string, namePrefix = 'tool'): Tool[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `${namePrefix}_${i}`,
    description: `Tool number ${i}`,
    parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
    source,
    execute: () => `result ${i}`,
  }));
}

/** `count` tools from three sources, every tenth name taken twice (for the `prefix` case). */
function clashingTools(count: number): Tool[] {
  const unique = Math.ceil(count * 0.9);
  const local = makeTools(unique, 'local');
  const clashes = makeTools(count - unique, 'mcp:search').map((t, i) => ({
    ...t,
    name: `tool_${i * 9}`,
  }));
  return [...local, ...clashes];
}

/** MCP `tools/list` entries, the shape a server sends. */
function mcpDefinitions(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    name: `mcp_tool_${i}`,
    description: `Remote tool ${i}`,
    inputSchema: {
      type: 'object' as const,
      properties: { query: { type: 'string' }, limit: { type: 'integer', minimum: 1 } },
      required: ['query'],
    },
  }));
}

/**
 * A client answering `tools/list` in pages of PAGE_SIZE from memory. It stands in for the SDK's
 * Client (not a dependency of the bench package) so the rows measure Skein's own work: following
 * cursors, filtering, copying schemas, building tools. Protocol and transport costs are the SDK's.
 */
function pagedLister(count: number): McpClient {
  const definitions = mcpDefinitions(count);
  const lister = {
    getServerVersion: () => ({ name: 'bench', version: '1.0.0' }),
    listTools: async (params?: { cursor?: string }) => {
      const start = params?.cursor === undefined ? 0 : Number(params.cursor);
      const end = start + PAGE_SIZE;
      return {
        tools: definitions.slice(start, end),
        ...(end < definitions.length ? { nextCursor: String(end) } : {}),
      };
    },
    callTool: async () => ({ content: [] }),
  };
  return lister as unknown as McpClient;
}

async function registerRows(count: number): Promise<BenchRow[]> {
  const fresh = () => ({ registry: new ToolRegistry(), tools: makeTools(count, 'local') });
  return [
    await measure(
      {
        suite: SUITE,
        case: `register ${count}`,
        subject: 'Skein registerTools (error)',
        ops: count,
      },
      fresh,
      ({ registry, tools }) => registerTools(registry, tools),
    ),
    await measure(
      {
        suite: SUITE,
        case: `register ${count}`,
        subject: 'Skein ToolRegistry.registerMany (baseline)',
        ops: count,
      },
      fresh,
      ({ registry, tools }) => registry.registerMany(tools),
    ),
    await measure(
      {
        suite: SUITE,
        case: `register ${count}`,
        subject: 'Skein registerTools (prefix, 10% clashing)',
        ops: count,
        note: 'into a registry already holding the same number of other tools',
      },
      () => {
        const registry = new ToolRegistry().registerMany(makeTools(count, 'old', 'existing'));
        return { registry, tools: clashingTools(count) };
      },
      ({ registry, tools }) => registerTools(registry, tools, { onConflict: 'prefix' }),
    ),
  ];
}

async function convertRow(count: number): Promise<BenchRow> {
  return measure(
    {
      suite: SUITE,
      case: `convert ${count} MCP tools`,
      subject: 'Skein fromMcpClient',
      ops: count,
      note: `${Math.ceil(count / PAGE_SIZE)} pages of ${PAGE_SIZE}`,
    },
    () => pagedLister(count),
    async (client) => {
      const tools = await fromMcpClient(client);
      if (tools.length !== count) throw new Error(`converted ${tools.length} of ${count}`);
    },
  );
}

function ratio(
  rows: readonly BenchRow[],
  subject: string,
  small: string,
  large: string,
): number | undefined {
  const a = rows.find((r) => r.subject === subject && r.case === small);
  const b = rows.find((r) => r.subject === subject && r.case === large);
  return a && b ? b.usPerOp / a.usPerOp : undefined;
}

export const interopBench: BenchSuite = {
  name: SUITE,
  async run() {
    return [
      ...(await registerRows(1_000)),
      ...(await registerRows(10_000)),
      await convertRow(100),
      await convertRow(1_000),
    ];
  },
  summarize(rows) {
    // Linear work keeps the cost per tool flat as the count grows 10×; quadratic conflict checks
    // would make it about 10× larger. Target: per-tool cost at 10× size within 2× (timer noise,
    // GC and cache effects included).
    const checks: [string, number | undefined][] = [
      [
        'registerTools (error), 10,000 vs 1,000',
        ratio(rows, 'Skein registerTools (error)', 'register 1000', 'register 10000'),
      ],
      [
        'registerTools (prefix), 10,000 vs 1,000',
        ratio(
          rows,
          'Skein registerTools (prefix, 10% clashing)',
          'register 1000',
          'register 10000',
        ),
      ],
      [
        'fromMcpClient, 1,000 vs 100',
        ratio(rows, 'Skein fromMcpClient', 'convert 100 MCP tools', 'convert 1000 MCP tools'),
      ],
    ];
    const lines = checks.map(([label, value]) =>
      value === undefined
        ? `- ${label}: missing rows`
        : `- ${label}: µs/tool ratio ${value.toFixed(2)} (linear ≈ 1, quadratic ≈ 10) — target ≤ 2: ${value <= 2 ? 'met' : 'NOT met'}`,
    );
    const baseline = ratio(
      rows,
      'Skein ToolRegistry.registerMany (baseline)',
      'register 1000',
      'register 10000',
    );
    if (baseline !== undefined)
      lines.push(
        `- (for reference) ToolRegistry.registerMany, 10,000 vs 1,000: ratio ${baseline.toFixed(2)}`,
      );
    return lines.join('\n');
  },
};
