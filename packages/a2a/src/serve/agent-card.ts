import type { AgentCard } from '@a2a-js/sdk';
import { InvalidArgumentError } from '@skein/spec';

/** A skill the agent card lists: what the agent is good at, for a client choosing agents. */
export interface A2ASkill {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly tags?: readonly string[];
  readonly examples?: readonly string[];
}

/** What the agent card says of the agent; the rest (interfaces, capabilities) is Skein's to say. */
export interface A2ACardOptions {
  readonly name: string;
  readonly description: string;
  /** The agent's own version (default `1.0.0`). */
  readonly version?: string;
  readonly skills?: readonly A2ASkill[];
  readonly provider?: { readonly organization: string; readonly url: string };
  readonly documentationUrl?: string;
}

/** The A2A protocol version served, as the card and the `A2A-Version` header name it. */
const PROTOCOL_VERSION = '1.0';

function text(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new InvalidArgumentError(where, `${where} must be a non-empty string`);
  return value;
}

/** `card` checked, so a mistake is the app's error at start, not a client's at its first call. */
export function checkCardOptions(card: unknown): A2ACardOptions {
  if (typeof card !== 'object' || card === null)
    throw new InvalidArgumentError('card', 'card must be an object { name, description, … }');
  const options = card as A2ACardOptions;
  text(options.name, 'card.name');
  text(options.description, 'card.description');
  if (options.version !== undefined) text(options.version, 'card.version');
  for (const [i, skill] of (options.skills ?? []).entries()) {
    text(skill?.id, `card.skills[${i}].id`);
    text(skill?.name, `card.skills[${i}].name`);
    text(skill?.description, `card.skills[${i}].description`);
  }
  return options;
}

/** The agent card for an endpoint at `url`: JSON-RPC, streaming, push notifications when served. */
export function agentCard(
  options: A2ACardOptions,
  url: string,
  pushNotifications = false,
): AgentCard {
  return {
    name: options.name,
    description: options.description,
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: PROTOCOL_VERSION },
    ],
    provider: options.provider ? { ...options.provider } : undefined,
    version: options.version ?? '1.0.0',
    ...(options.documentationUrl ? { documentationUrl: options.documentationUrl } : {}),
    capabilities: {
      streaming: true,
      pushNotifications,
      extensions: [],
      extendedAgentCard: false,
    },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain', 'application/json', 'image/*', 'audio/*', '*/*'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: (options.skills ?? []).map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      tags: [...(s.tags ?? [])],
      examples: [...(s.examples ?? [])],
      inputModes: [],
      outputModes: [],
      securityRequirements: [],
    })),
    signatures: [],
  };
}
