// A real MCP server (the SDK's McpServer) used by the tests, in process and as a child process.
// McpServer answers tools/list in one page, so the list handler is replaced on its underlying
// low-level Server by one that pages through the same tools with an opaque cursor.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

export function createFixtureServer(options = {}) {
  const { name = 'fixture', fillerTools = 0, pageSize = 0, onCrash = () => {} } = options;
  const mcp = new McpServer(
    { name, version: '1.0.0' },
    { capabilities: { tools: { listChanged: true } } },
  );
  /** @type {Map<string, {entry: object, registered: object}>} */
  const catalogue = new Map();
  const cursorsSeen = [];

  function define(toolName, config, handler) {
    const registered = mcp.registerTool(toolName, config, handler);
    catalogue.set(toolName, { config, registered });
    return registered;
  }

  function listEntry(toolName, { config }) {
    return {
      name: toolName,
      ...(config.title ? { title: config.title } : {}),
      ...(config.description ? { description: config.description } : {}),
      inputSchema: z.toJSONSchema(z.object(config.inputSchema ?? {})),
      ...(config.outputSchema ? { outputSchema: z.toJSONSchema(z.object(config.outputSchema)) } : {}),
    };
  }

  define(
    'add',
    { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );
  define(
    'describe_image',
    { description: 'Returns a caption and the image' },
    async () => ({
      content: [
        { type: 'text', text: 'a red dot' },
        { type: 'text', text: '1x1 pixels' },
        { type: 'image', data: PNG_1X1, mimeType: 'image/png' },
      ],
    }),
  );
  define('only_image', { description: 'Returns only an image' }, async () => ({
    content: [{ type: 'image', data: PNG_1X1, mimeType: 'image/png' }],
  }));
  define(
    'weather',
    {
      description: 'Structured weather',
      inputSchema: { city: z.string() },
      outputSchema: { city: z.string(), celsius: z.number() },
    },
    async ({ city }) => ({
      content: [],
      structuredContent: { city, celsius: 21 },
    }),
  );
  define('fail', { description: 'Always reports an error' }, async () => ({
    isError: true,
    content: [
      { type: 'text', text: 'quota exceeded' },
      { type: 'text', text: 'retry after 60 s' },
    ],
  }));
  define('throws', { description: 'Its handler throws' }, async () => {
    throw new Error('database unavailable');
  });
  define('crash', { description: 'The server dies while answering' }, async () => {
    onCrash();
    return new Promise(() => {});
  });
  define('wait', { description: 'Answers only once the call is cancelled' }, async (extra) =>
    new Promise((resolve) => {
      extra.signal.addEventListener('abort', () =>
        resolve({ content: [{ type: 'text', text: 'cancelled' }] }),
      );
    }),
  );
  define(
    'register_tool',
    { description: 'Adds a tool at run time', inputSchema: { name: z.string() } },
    async ({ name: added }) => {
      addTool(added, `added at run time: ${added}`);
      return { content: [{ type: 'text', text: `registered ${added}` }] };
    },
  );
  for (let i = 0; i < fillerTools; i++) {
    const toolName = `tool_${String(i).padStart(3, '0')}`;
    define(
      toolName,
      { description: `Filler tool ${i}`, inputSchema: { value: z.string() } },
      async ({ value }) => ({ content: [{ type: 'text', text: `${toolName}:${value}` }] }),
    );
  }

  function addTool(toolName, description) {
    define(toolName, { description, inputSchema: { value: z.string() } }, async ({ value }) => ({
      content: [{ type: 'text', text: `${toolName}:${value}` }],
    }));
  }
  function removeTool(toolName) {
    const found = catalogue.get(toolName);
    if (!found) throw new Error(`no tool ${toolName}`);
    catalogue.delete(toolName);
    found.registered.remove();
  }
  function updateTool(toolName, description) {
    const found = catalogue.get(toolName);
    if (!found) throw new Error(`no tool ${toolName}`);
    found.config = { ...found.config, description };
    found.registered.update({ description });
  }

  if (pageSize > 0) {
    mcp.server.removeRequestHandler('tools/list');
    mcp.server.setRequestHandler(ListToolsRequestSchema, (request) => {
      const cursor = request.params?.cursor;
      cursorsSeen.push(cursor);
      const start = cursor === undefined ? 0 : Number(/^page-(\d+)$/.exec(cursor)?.[1] ?? Number.NaN);
      if (!Number.isInteger(start)) throw new McpError(ErrorCode.InvalidParams, `bad cursor ${cursor}`);
      const entries = [...catalogue].map(([toolName, found]) => listEntry(toolName, found));
      const end = start + pageSize;
      return {
        tools: entries.slice(start, end),
        ...(end < entries.length ? { nextCursor: `page-${end}` } : {}),
      };
    });
  }

  return { mcp, cursorsSeen, addTool, removeTool, updateTool };
}
