import type { LLMMessage, MessageContent } from '@skein/spec';
import { ConversationError } from './errors/conversation-error.js';
import { descriptionSlot } from './list-operations.js';
import { isToolDescription } from './tool-description.js';

// The rules that keep exactly one tool description in a batch started with initial tools, as
// pure functions of a visible list. The manager applies them to every view it builds.

type Lookup = (position: number) => LLMMessage;

/** The last description stored, which an unchanged description reuses instead of storing a copy. */
export interface StoredDescription {
  readonly position: number;
  // Always text when the conversation built it; parts (from a restored snapshot) never match.
  readonly content: MessageContent;
}

export interface DescribedView {
  readonly live: readonly number[];
  /** The descriptions `live` shows, when known (always, for a view built with initial tools). */
  readonly found?: readonly number[];
  /** A description to store at the next free position (nothing stored could be reused). */
  readonly store?: LLMMessage;
}

/** Storage positions of the descriptions in `live`. */
export function descriptionsIn(live: readonly number[], lookup: Lookup): number[] {
  const found: number[] = [];
  for (const p of live) if (isToolDescription(lookup(p))) found.push(p);
  return found;
}

/** True when `live` already shows exactly the description `wanted` asks for (none for undefined). */
export function isDescribed(
  found: readonly number[],
  lookup: Lookup,
  wanted: LLMMessage | undefined,
): boolean {
  if (!wanted) return found.length === 0;
  return found.length === 1 && lookup(found[0]!).content === wanted.content;
}

/**
 * `live` with exactly one description whose text is `wanted`'s (none when `wanted` is undefined).
 * Other descriptions are dropped; a missing one goes after the leading system messages, so a
 * system prompt stays first and the description is read before the conversation.
 */
export function withOneDescription(
  live: readonly number[],
  lookup: Lookup,
  wanted: LLMMessage | undefined,
  reusable: StoredDescription | undefined,
  nextPosition: number,
): DescribedView {
  const found = descriptionsIn(live, lookup);
  if (isDescribed(found, lookup, wanted)) return { live, found };
  const drop = new Set(found);
  const rest = found.length ? live.filter((p) => !drop.has(p)) : live;
  if (!wanted) return { live: rest, found: [] };
  const slot = descriptionSlot(rest, lookup);
  const reuse = reusable !== undefined && reusable.content === wanted.content;
  const position = reuse ? reusable.position : nextPosition;
  const next = [...rest.slice(0, slot), position, ...rest.slice(slot)];
  return reuse
    ? { live: next, found: [position] }
    : { live: next, found: [position], store: wanted };
}

/** Refuses a message that poses as the description: only the conversation builds that one. */
export function refuseForgedDescription(message: LLMMessage, where: string): void {
  if (isToolDescription(message))
    throw ConversationError.toolDescriptionReserved(
      `${where}.metadata.kind`,
      `${where}.metadata.kind "tool-description" on a system message is reserved for the description the conversation builds from its initial tools`,
    );
}

/** Refuses a REPLACE of the description: it changes only when the initial tools do. */
export function refuseReplacedDescription(message: LLMMessage, position: number): void {
  if (isToolDescription(message))
    throw ConversationError.toolDescriptionReserved(
      'REPLACE position',
      `REPLACE position ${position} shows the tool description, which follows the initial tools and cannot be replaced; change the initial tools and start a batch instead`,
      { position },
    );
}
