import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

// A small MCP server the app starts as a child process and talks to over stdin/stdout. Its data
// lives only here, so a forecast in the app's output proves the call went through this process.

interface Climate {
  readonly highC: number;
  readonly rainyDays: number;
  readonly note: string;
}

const MONTHS = ['March', 'April', 'May', 'June'] as const;

/** Monthly climate normals (rounded) for the cities the demo compares. */
const NORMALS: Readonly<Record<string, Readonly<Record<(typeof MONTHS)[number], Climate>>>> = {
  lisbon: {
    March: { highC: 19, rainyDays: 8, note: 'mild, the odd shower' },
    April: { highC: 20, rainyDays: 7, note: 'sunny spells, light jacket in the evening' },
    May: { highC: 23, rainyDays: 5, note: 'warm and mostly dry' },
    June: { highC: 26, rainyDays: 2, note: 'hot and dry' },
  },
  kyoto: {
    March: { highC: 14, rainyDays: 11, note: 'cool, early blossom' },
    April: { highC: 20, rainyDays: 10, note: 'cherry blossom, frequent showers' },
    May: { highC: 25, rainyDays: 10, note: 'warm, fresh green' },
    June: { highC: 28, rainyDays: 14, note: 'rainy season begins' },
  },
  reykjavik: {
    March: { highC: 4, rainyDays: 15, note: 'cold and windy' },
    April: { highC: 6, rainyDays: 13, note: 'cold, changeable, long days returning' },
    May: { highC: 10, rainyDays: 11, note: 'cool and bright' },
    June: { highC: 13, rainyDays: 11, note: 'midnight sun' },
  },
};

const server = new McpServer({ name: 'weather', version: '1.0.0' });

server.registerTool(
  'weather_forecast',
  {
    description: 'Typical weather of a city in a spring month (climate normals)',
    inputSchema: {
      city: z.string().describe('a city, e.g. Lisbon'),
      month: z.enum(MONTHS),
    },
  },
  async ({ city, month }) => {
    const climate = NORMALS[city.toLowerCase()]?.[month];
    if (!climate)
      return {
        isError: true,
        content: [{ type: 'text', text: `no climate data for "${city}"` }],
      };
    return {
      content: [
        {
          type: 'text',
          text: `${city} in ${month}: ${climate.highC} °C average high, ${climate.rainyDays} rainy days; ${climate.note}.`,
        },
      ],
      structuredContent: { city, month, ...climate, servedByPid: process.pid },
    };
  },
);

// Ctrl-C in a terminal reaches the whole process group: the app decides when this server stops
// (it closes stdin), so a cancelled run can still finish the tool calls it has started.
process.on('SIGINT', () => {});
process.stdin.on('end', () => process.exit(0));
await server.connect(new StdioServerTransport());
