import type { RecordedRequest, ScriptedTurn, TurnSource } from '@skein/testkit';
import { compareTurn, itineraryTurn } from './embedded-compare.js';
import {
  call,
  LATE_IDS,
  NO_INDEX,
  toolResultsSinceLastUser,
  type WireBody,
  type WireMessage,
} from './embedded-wire.js';

// The demo's model when no real endpoint is configured: a script that reads the request like a
// model would (the tools offered, the tool results so far) and answers with tool calls or text.
// Its stream carries real-world quirks: ids that arrive late, fragments without an index.

/** The cheapest city of the comparison the JOIN added to the conversation, if any. */
function bestValue(messages: readonly WireMessage[]): string | undefined {
  const verdicts = messages.flatMap((m) => {
    const match =
      m.role === 'assistant'
        ? /^([\p{L} ]+): ([\d.]+) EUR for 4 days/u.exec(m.content ?? '')
        : null;
    return match ? [{ city: match[1]!, total: Number(match[2]) }] : [];
  });
  const best = verdicts.sort((a, b) => a.total - b.total)[0];
  return (
    best && `Best value of the ${verdicts.length} compared: ${best.city} (${best.total} EUR). `
  );
}

/** Phase one: look the destination and the fare rules up, then compute the total. */
function plan(body: WireBody, offered: string[]): ScriptedTurn {
  const results = toolResultsSinceLastUser(body.messages);
  const policyTool = offered.find((n) => n.startsWith('travel_policies'));
  if (results.length === 0)
    return {
      content: 'Let me check Lisbon and the fare rules. ',
      toolCalls: [
        call('lookup_destination', { query: 'Lisbon' }),
        ...(policyTool ? [call(policyTool, { fareClass: 'flex' })] : []),
      ],
      quirks: LATE_IDS,
    };
  if (results.length <= 2)
    return {
      toolCalls: [call('calculator', { expression: '4 * 95 + 2 * 180' })],
      quirks: NO_INDEX,
    };
  const total = results.at(-1)?.content ?? '?';
  return {
    content:
      (bestValue(body.messages) ?? '') +
      'Plan: 4 days in Lisbon (best in April to June). See Alfama and tram 28, Belém, and take a ' +
      `day trip to Sintra. Flex fare: refundable minus 30 EUR up to 24 hours before departure. ` +
      `Estimated total: ${total} EUR (4 days at 95 EUR plus a 180 EUR flight each way).`,
  };
}

/** Phase two: convert the total into the traveller's currency and quote it. */
function quote(body: WireBody): ScriptedTurn {
  const prompt = [...body.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const total = Number(/Estimated total: ([\d.]+) EUR/.exec(prompt)?.[1] ?? '0');
  const currency = /total in ([A-Z]{3})/.exec(prompt)?.[1] ?? 'EUR';
  const traveller = /for ([^.]+)\.$/.exec(prompt.trim())?.[1] ?? 'you';
  const sawDescription =
    body.messages[0]?.role === 'system' && /^Available tools:/.test(body.messages[0].content ?? '');
  if (!sawDescription) return { content: 'I cannot see a description of my tools.' };
  const results = toolResultsSinceLastUser(body.messages);
  if (results.length === 0)
    return {
      toolCalls: [
        call('currency_convert', { amount: total, from: 'EUR', to: currency }),
        call('clock', { timeZone: 'Europe/Lisbon' }),
      ],
      quirks: LATE_IDS,
    };
  const converted = results[0]?.content ?? '?';
  return {
    content: `Quote for ${traveller}: ${converted} (${total} EUR), valid as of ${results[1]?.content ?? 'now'}.`,
  };
}

/** The script handed to the testkit's OpenAI-compatible server. */
export function travelScript(request: RecordedRequest): TurnSource {
  const body = request.body as WireBody;
  const offered = (body.tools ?? []).map((t) => t.function.name);
  const turn =
    compareTurn(body) ??
    itineraryTurn(body) ??
    (offered.includes('currency_convert') ? quote(body) : plan(body, offered));
  // A rough token count (4 characters a token) so the summary has usage to show.
  const promptTokens = Math.ceil(JSON.stringify(body.messages).length / 4);
  const completionTokens = Math.ceil(
    ((turn.content?.length ?? 0) + JSON.stringify(turn.toolCalls ?? []).length) / 4,
  );
  return { ...turn, usage: { promptTokens, completionTokens } };
}
