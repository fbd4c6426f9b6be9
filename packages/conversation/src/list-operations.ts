import type { LLMMessage } from '@skein/spec';
import type { CheckedTruncate } from './argument-checks.js';
import { type FilterOperation, SUMMARY_KIND } from './context-operations.js';
import { isToolDescription } from './tool-description.js';
import { exchangeUnits } from './tool-exchanges.js';

const NO_POSITIONS: readonly number[] = Object.freeze([]);

// Pure functions from a visible list of storage positions to a new one. They never touch storage;
// the manager logs their result and applies it.

type Lookup = (position: number) => LLMMessage;

/** Messages that no content operation removes: system messages (when preserved) and the tool
 * description (always: it is infrastructure, and the batch guarantee depends on it). */
function isPinned(message: LLMMessage, preserveSystem: boolean): boolean {
  return isToolDescription(message) || (preserveSystem && message.role === 'system');
}

/** Keeps whole exchange units from one end while their message count fits `limit`. */
function keepUnitsByCount(
  live: readonly number[],
  lookup: Lookup,
  preserveSystem: boolean,
  keep: 'first' | 'last',
  limit: number,
): number[] {
  const messages = live.map(lookup);
  const pinned = messages.map((m) => isPinned(m, preserveSystem));
  const candidates: number[] = [];
  for (let i = 0; i < live.length; i++) if (!pinned[i]) candidates.push(i);
  const units = exchangeUnits(candidates.map((i) => messages[i]!));
  const ordered = keep === 'last' ? [...units].reverse() : units;
  const kept = new Set<number>();
  let used = 0;
  for (const unit of ordered) {
    const size = unit.end - unit.start;
    if (used + size > limit) break;
    used += size;
    for (let k = unit.start; k < unit.end; k++) kept.add(candidates[k]!);
  }
  return live.filter((_, i) => pinned[i] || kept.has(i));
}

function truncateByCount(
  live: readonly number[],
  lookup: Lookup,
  keep: 'first' | 'last',
  count: number,
  preserveSystem: boolean,
): number[] {
  return keepUnitsByCount(live, lookup, preserveSystem, keep, count);
}

/** Keeps pinned messages, then the most recent whole units whose tokens still fit the budget. */
function truncateByTokens(
  live: readonly number[],
  lookup: Lookup,
  maxTokens: number,
  preserveSystem: boolean,
  tokens: (position: number) => number,
): number[] {
  const messages = live.map(lookup);
  const pinned = messages.map((m) => isPinned(m, preserveSystem));
  let used = 0;
  const candidates: number[] = [];
  for (let i = 0; i < live.length; i++) {
    if (pinned[i]) used += tokens(live[i]!);
    else candidates.push(i);
  }
  const units = exchangeUnits(candidates.map((i) => messages[i]!));
  const kept = new Set<number>();
  for (let u = units.length - 1; u >= 0; u--) {
    const unit = units[u]!;
    let cost = 0;
    for (let k = unit.start; k < unit.end; k++) cost += tokens(live[candidates[k]!]!);
    if (used + cost > maxTokens) break;
    used += cost;
    for (let k = unit.start; k < unit.end; k++) kept.add(candidates[k]!);
  }
  return live.filter((_, i) => pinned[i] || kept.has(i));
}

/** TRUNCATE by count or by tokens; `tokens` counts a stored message unless the op has a counter. */
export function truncateList(
  live: readonly number[],
  lookup: Lookup,
  op: CheckedTruncate,
  tokens: (position: number) => number,
): number[] {
  if (op.byCount)
    return truncateByCount(live, lookup, op.byCount.keep, op.byCount.count, op.preserveSystem);
  const { maxTokens, counter } = op.byTokens!;
  const cost = counter ? (p: number) => counter(lookup(p)) : tokens;
  return truncateByTokens(live, lookup, maxTokens, op.preserveSystem, cost);
}

function matchesFilter(op: FilterOperation, message: LLMMessage, index: number): boolean {
  if (op.roles && !op.roles.includes(message.role)) return false;
  if (op.metadata) {
    for (const [key, value] of Object.entries(op.metadata)) {
      if (!message.metadata || !Object.is(message.metadata[key], value)) return false;
    }
  }
  if (op.predicate && !op.predicate(message, index)) return false;
  return true;
}

export function filterList(live: readonly number[], lookup: Lookup, op: FilterOperation): number[] {
  const messages = live.map(lookup);
  const keepMatching = (op.mode ?? 'keep') === 'keep';
  const keep = messages.map(
    (m, i) => isToolDescription(m) || matchesFilter(op, m, i) === keepMatching,
  );
  for (const unit of exchangeUnits(messages)) {
    if (unit.end - unit.start < 2) continue;
    let all = true;
    for (let k = unit.start; k < unit.end; k++) all &&= keep[k]!;
    for (let k = unit.start; k < unit.end; k++) keep[k] = all;
  }
  return live.filter((_, i) => keep[i]);
}

/** The system messages of a list, without tool descriptions (those are rebuilt). */
export function systemMessagesOf(live: readonly number[], lookup: Lookup): number[] {
  return live.filter((p) => {
    const m = lookup(p);
    return m.role === 'system' && !isToolDescription(m);
  });
}

/**
 * Where the tool description goes: after the leading system messages, so a system prompt stays
 * first and the description is seen before the conversation.
 */
export function descriptionSlot(live: readonly number[], lookup: Lookup): number {
  let i = 0;
  while (i < live.length && lookup(live[i]!).role === 'system') i++;
  return i;
}

/** Positions in `after` that are not in `before`, and the reverse. */
export function diffLists(
  before: readonly number[],
  after: readonly number[],
): { removed: number[]; added: number[] } {
  const inBefore = new Set(before);
  const inAfter = new Set(after);
  return {
    removed: before.filter((p) => !inAfter.has(p)),
    added: after.filter((p) => !inBefore.has(p)),
  };
}

/** The positions of `live` stored at or after `start` (a batch boundary `0..total`). */
export function liveFrom(live: readonly number[], start: number, total: number): readonly number[] {
  // Shared when empty, as every new thread's first batch is: the batch's log entry freezes it.
  if (live.length === 0 || start >= total) return NO_POSITIONS;
  return start === 0 ? live.slice() : live.filter((p) => p >= start);
}

/**
 * The positions of the last `turns` turns of `live`, in order: from the `turns`-th last user
 * message on, without system messages and tool descriptions (a summary batch shows those
 * itself). A turn starts at a user message, so a tool call and its results fall in one turn.
 */
export function lastTurns(live: readonly number[], lookup: Lookup, turns: number): number[] {
  if (turns === 0) return [];
  let start = live.length;
  let found = 0;
  for (let i = live.length - 1; i >= 0 && found < turns; i--)
    if (lookup(live[i]!).role === 'user' && !isSummary(lookup(live[i]!))) {
      start = i;
      found++;
    }
  return live.slice(start).filter((p) => {
    const m = lookup(p);
    return m.role !== 'system' && !isToolDescription(m);
  });
}

/** True for the message a SUMMARIZE stored. */
export function isSummary(message: LLMMessage): boolean {
  return message.metadata?.kind === SUMMARY_KIND;
}
