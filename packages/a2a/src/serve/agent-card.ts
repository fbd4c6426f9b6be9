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
  /**
   * The extended card an authenticated caller reads (`GetExtendedAgentCard`): what this caller
   * may see besides the public card, e.g. skills only paying callers have. Needs `authorize`
   * (the caller is the principal it names); the public card then says `extendedAgentCard: true`.
   */
  readonly extended?: (caller: string) => A2AExtendedCard | Promise<A2AExtendedCard>;
}

/** What an extended card adds to the public one: another description, more skills. */
export interface A2AExtendedCard {
  /** Replaces the public description. */
  readonly description?: string;
  /** Added to the public skills; one with a public skill's id replaces it. */
  readonly skills?: readonly A2ASkill[];
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
  checkSkills(options.skills, 'card.skills');
  if (options.extended !== undefined && typeof options.extended !== 'function')
    throw new InvalidArgumentError(
      'card.extended',
      'card.extended must be a function of the caller',
    );
  return options;
}

function checkSkills(skills: unknown, where: string): void {
  if (skills === undefined) return;
  if (!Array.isArray(skills)) throw new InvalidArgumentError(where, `${where} must be an array`);
  for (const [i, skill] of skills.entries()) {
    text(skill?.id, `${where}[${i}].id`);
    text(skill?.name, `${where}[${i}].name`);
    text(skill?.description, `${where}[${i}].description`);
  }
}

function skillOf(s: A2ASkill) {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    tags: [...(s.tags ?? [])],
    examples: [...(s.examples ?? [])],
    inputModes: [],
    outputModes: [],
    securityRequirements: [],
  };
}

/**
 * `card` as `caller` reads it, with what `extended` gave for them. What `extended` gave is checked
 * like the card's own options: a mistake is the app's, reported to the caller as an internal error.
 */
export function extendedCard(card: AgentCard, extra: A2AExtendedCard): AgentCard {
  if (typeof extra !== 'object' || extra === null)
    throw new InvalidArgumentError('card.extended', 'card.extended must return an object');
  if (extra.description !== undefined) text(extra.description, 'card.extended().description');
  checkSkills(extra.skills, 'card.extended().skills');
  const added = (extra.skills ?? []).map(skillOf);
  const ids = new Set(added.map((s) => s.id));
  return {
    ...card,
    description: extra.description ?? card.description,
    skills: [...card.skills.filter((s) => !ids.has(s.id)), ...added],
  };
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
      extendedAgentCard: options.extended !== undefined,
    },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain', 'application/json', 'image/*', 'audio/*', '*/*'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: (options.skills ?? []).map(skillOf),
    signatures: [],
  };
}
