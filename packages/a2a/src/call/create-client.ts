import type { AgentCard } from '@a2a-js/sdk';
import {
  type AgentCardResolver,
  type Client,
  ClientFactory,
  createAuthenticatingFetchWithRetry,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import { A2ACallError } from './a2a-call-error.js';
import { agentCardProblem } from './agent-card-problem.js';
import { toCallError } from './call-failure.js';

export interface ClientSource {
  readonly url?: string;
  readonly card?: AgentCard;
  readonly headers?: Readonly<Record<string, string>>;
  readonly fetch?: typeof fetch;
}

/**
 * A fetch that adds `headers` to every request, the card's included (an agent may guard its
 * card too). The SDK's own wrapper is used with no retry: a header the SDK sets itself wins.
 */
function fetchWith(base: typeof fetch, headers: Readonly<Record<string, string>> | undefined) {
  if (!headers || Object.keys(headers).length === 0) return base;
  return createAuthenticatingFetchWithRetry(base, {
    headers: async () => ({ ...headers }),
    shouldRetryWithHeaders: async () => undefined,
  });
}

/**
 * Checks every card the factory is about to use, fetched or given: the SDK takes any JSON as a
 * card and fails later, far from the cause. `seen` keeps the checked card for the tool's name.
 */
function checkingResolver(
  inner: DefaultAgentCardResolver,
  agent: string,
  seen: (card: AgentCard) => void,
): AgentCardResolver {
  const check = (card: unknown): AgentCard => {
    const problem = agentCardProblem(card);
    if (problem)
      throw new A2ACallError(
        'A2A_AGENT_CARD_INVALID',
        { agent, operation: 'agent card' },
        `not an agent card: ${problem}`,
      );
    seen(card as AgentCard);
    return card as AgentCard;
  };
  return {
    async resolve(baseUrl, path) {
      let card: AgentCard;
      try {
        card = await inner.resolve(baseUrl, path);
      } catch (error) {
        // A body that is not JSON is a bad card, not a failed call.
        if (error instanceof SyntaxError)
          throw new A2ACallError(
            'A2A_AGENT_CARD_INVALID',
            { agent, operation: 'agent card' },
            `not an agent card: ${error.message}`,
            { cause: error },
          );
        throw toCallError(error, agent, 'agent card');
      }
      return check(card);
    },
    normalizeAgentCard: (card) => check(inner.normalizeAgentCard(card)),
  };
}

/**
 * An SDK client for the agent, and the card it was made from. Both the JSON-RPC and the
 * HTTP+JSON transports are offered (the card chooses), with the SDK's v0.3 compatibility on, so
 * agents still on A2A 0.3 are reached too.
 */
export async function createClient(
  source: ClientSource,
): Promise<{ client: Client; card: AgentCard }> {
  const agent = source.card?.name ?? source.url ?? '(no url)';
  const fetchImpl = fetchWith(source.fetch ?? globalThis.fetch, source.headers);
  const legacyCompat = { enabled: true };
  let card: AgentCard | undefined;
  const factory = new ClientFactory({
    transports: [
      new JsonRpcTransportFactory({ fetchImpl, legacyCompat }),
      new RestTransportFactory({ fetchImpl, legacyCompat }),
    ],
    cardResolver: checkingResolver(
      new DefaultAgentCardResolver({ fetchImpl, legacyCompat }),
      agent,
      (checked) => {
        card = checked;
      },
    ),
  });
  try {
    const client = source.card
      ? await factory.createFromAgentCard(source.card)
      : await factory.createFromUrl(source.url!);
    return { client, card: card! };
  } catch (error) {
    if (A2ACallError.isInstance(error)) throw error;
    // What is left is the factory refusing the card: no transport it can use.
    throw new A2ACallError(
      'A2A_AGENT_CARD_INVALID',
      { agent: card?.name ?? agent, operation: 'agent card' },
      error instanceof Error ? error.message : String(error),
      { cause: error },
    );
  }
}
