import type { ScriptedTurn } from '@skein/testkit';
import {
  call,
  LATE_IDS,
  lastUserText,
  NO_INDEX,
  resultOf,
  type WireBody,
} from './embedded-wire.js';

// The embedded model's answers inside the comparison branches and the itinerary subworkflow.
// Each reads only its own request, so branches running at the same time never mix.

interface DestinationFacts {
  averageDailyCostEur?: number;
  flightFromLondonEur?: number;
  highlights?: string[];
}

function facts(lookup: string | undefined): DestinationFacts {
  try {
    const parsed = JSON.parse(lookup ?? '[]') as DestinationFacts[] | DestinationFacts;
    return (Array.isArray(parsed) ? parsed[0] : parsed) ?? {};
  } catch {
    return {};
  }
}

/** A comparison branch: look the city up and ask the MCP weather tool, then compute the cost. */
export function compareTurn(body: WireBody): ScriptedTurn | undefined {
  const city = /^Weigh up ([\p{L} ]+?) for/u.exec(lastUserText(body.messages))?.[1];
  if (city === undefined) return undefined;
  const lookup = resultOf(body.messages, 'lookup_destination');
  const weather = resultOf(body.messages, 'weather_forecast');
  if (lookup === undefined)
    return {
      content: `Checking ${city}. `,
      toolCalls: [
        call('lookup_destination', { query: city }),
        call('weather_forecast', { city, month: 'April' }),
      ],
      quirks: LATE_IDS,
    };
  const total = resultOf(body.messages, 'calculator');
  if (total === undefined) {
    const { averageDailyCostEur: daily, flightFromLondonEur: flight } = facts(lookup);
    if (daily === undefined || flight === undefined)
      return { content: `${city}: no price data. ${weather ?? ''}`.trim() };
    return {
      toolCalls: [call('calculator', { expression: `4 * ${daily} + 2 * ${flight}` })],
      quirks: NO_INDEX,
    };
  }
  return {
    content: `${city}: ${total} EUR for 4 days with a return flight. ${weather ?? ''}`.trim(),
  };
}

/** The itinerary subworkflow: the chosen city's highlights, one day each. */
export function itineraryTurn(body: WireBody): ScriptedTurn | undefined {
  const prompt = lastUserText(body.messages);
  if (!prompt.startsWith('Write a day-by-day itinerary')) return undefined;
  const traveller = /itinerary for (.+?) from this plan/.exec(prompt)?.[1] ?? 'you';
  const city = /\d+ days in ([\p{L}]+)/u.exec(prompt)?.[1] ?? 'Lisbon';
  const lookup = resultOf(body.messages, 'lookup_destination');
  if (lookup === undefined)
    return { toolCalls: [call('lookup_destination', { query: city })], quirks: LATE_IDS };
  const [first, second, third] = facts(lookup).highlights ?? [];
  const weather = new RegExp(`${city}: [^.]+\\. ${city} in April: ([^;]+);`).exec(prompt)?.[1];
  return {
    content:
      `Itinerary for ${traveller} in ${city}${weather ? ` (${weather})` : ''}:\n` +
      `Day 1: arrive, ${first ?? 'explore the centre'}.\n` +
      `Day 2: ${second ?? 'a museum morning'}.\n` +
      `Day 3: ${third ?? 'a day trip'}.\n` +
      'Day 4: a slow breakfast, then the flight home.',
  };
}
