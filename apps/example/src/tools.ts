import { readFileSync } from 'node:fs';
import { compileExpression, evaluateExpression, type Tool, ToolExecutionError } from '@skein/core';

interface Destination {
  city: string;
  country: string;
  bestSeason: string;
  averageDailyCostEur: number;
  flightFromLondonEur: number;
  highlights: string[];
  visa: string;
}

interface Knowledge {
  destinations: Destination[];
  policies: Record<string, string>;
}

const knowledge = JSON.parse(
  readFileSync(new URL('../data/knowledge.json', import.meta.url), 'utf8'),
) as Knowledge;

/** The tool whose name is longer than providers accept: it reaches them encoded. */
export const POLICY_TOOL_NAME =
  'travel.policies/look up the refund and cancellation rules for a fare class (version 2)';

/** The tool the weather MCP server (`mcp-server.ts`, a child process) offers. */
export const WEATHER_TOOL_NAME = 'weather_forecast';

/** Arithmetic through Skein's own expression language: no eval, no functions. */
const calculator: Tool<{ expression: string }> = {
  name: 'calculator',
  description: 'Evaluates an arithmetic expression with + - * / % and parentheses',
  parameters: {
    type: 'object',
    properties: { expression: { type: 'string', description: 'e.g. "4 * 95 + 180"' } },
    required: ['expression'],
    additionalProperties: false,
  },
  execute: ({ expression }) => {
    const value = evaluateExpression(compileExpression(expression), {});
    if (typeof value !== 'number' || !Number.isFinite(value))
      throw new ToolExecutionError(`"${expression}" is not an arithmetic expression`);
    return String(Math.round(value * 100) / 100);
  },
};

const clock: Tool<{ timeZone?: string }> = {
  name: 'clock',
  description: 'The current date and time, optionally in an IANA time zone such as Europe/Lisbon',
  parameters: {
    type: 'object',
    properties: { timeZone: { type: 'string' } },
    additionalProperties: false,
  },
  execute: ({ timeZone }) =>
    new Date().toLocaleString('en-GB', { timeZone: timeZone ?? 'UTC', timeZoneName: 'short' }),
};

const lookup: Tool<{ query: string }> = {
  name: 'lookup_destination',
  description:
    'Looks up a destination in the travel knowledge base (costs, season, visa, highlights)',
  parameters: {
    type: 'object',
    properties: { query: { type: 'string', description: 'a city or country' } },
    required: ['query'],
    additionalProperties: false,
  },
  execute: ({ query }) => {
    const q = query.toLowerCase();
    const found = knowledge.destinations.filter(
      (d) => d.city.toLowerCase().includes(q) || d.country.toLowerCase().includes(q),
    );
    if (found.length === 0)
      throw new ToolExecutionError(
        `no destination matches "${query}"; known: ${knowledge.destinations.map((d) => d.city).join(', ')}`,
      );
    return found;
  },
};

const policy: Tool<{ fareClass: string }> = {
  name: POLICY_TOOL_NAME,
  description: 'Refund and cancellation rules for a fare class: economy, flex or business',
  parameters: {
    type: 'object',
    properties: { fareClass: { type: 'string', enum: Object.keys(knowledge.policies) } },
    required: ['fareClass'],
    additionalProperties: false,
  },
  execute: ({ fareClass }) => knowledge.policies[fareClass] ?? 'unknown fare class',
};

const RATES_FROM_EUR: Record<string, number> = { EUR: 1, USD: 1.08, GBP: 0.85, JPY: 162 };

/** Added to the thread mid-run: offered to the model, not described by the tool description. */
export const currency: Tool<{ amount: number; from: string; to: string }> = {
  name: 'currency_convert',
  description: 'Converts an amount between EUR, USD, GBP and JPY at fixed demo rates',
  parameters: {
    type: 'object',
    properties: {
      amount: { type: 'number' },
      from: { type: 'string', enum: Object.keys(RATES_FROM_EUR) },
      to: { type: 'string', enum: Object.keys(RATES_FROM_EUR) },
    },
    required: ['amount', 'from', 'to'],
    additionalProperties: false,
  },
  execute: ({ amount, from, to }) => {
    const eur = amount / RATES_FROM_EUR[from]!;
    return `${(Math.round(eur * RATES_FROM_EUR[to]! * 100) / 100).toFixed(2)} ${to}`;
  },
};

export const initialTools = [calculator, clock, lookup, policy];
