import type { ScoredToolCall } from '../scorer.js';
import { sameJson } from './canonical-json.js';

/** A tool call a trajectory expects: its name, and the arguments it must have, when given. */
export interface ExpectedToolCall {
  readonly name: string;
  readonly arguments?: Readonly<Record<string, unknown>>;
}

/**
 * - `in-order`: the expected calls must come in their order (other calls may come between);
 * - `unordered`: each expected call must come, in any order.
 */
export type TrajectoryMode = 'in-order' | 'unordered';

/**
 * - `subset`: the call has each expected argument, equal as JSON (it may have more);
 * - `exact`: the call's arguments are the expected ones, no more.
 */
export type ArgumentMatch = 'subset' | 'exact';

export interface TrajectoryMatch {
  /** Expected calls matched, each by a call of its own. */
  readonly matched: number;
  /** Expected calls with no call matched to them. */
  readonly missing: readonly ExpectedToolCall[];
  /** Of those, the ones a call did match, out of the order asked (`in-order` only). */
  readonly outOfOrder: readonly ExpectedToolCall[];
  /** Calls matched to no expected call. */
  readonly extra: readonly ScoredToolCall[];
}

function argumentsMatch(
  expected: Readonly<Record<string, unknown>> | undefined,
  actual: unknown,
  how: ArgumentMatch,
): boolean {
  if (expected === undefined) return true;
  if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false;
  if (how === 'exact') return sameJson(expected, actual);
  const given = actual as Record<string, unknown>;
  for (const [key, value] of Object.entries(expected))
    if (!Object.hasOwn(given, key) || !sameJson(value, given[key])) return false;
  return true;
}

/** Whether `call` is the call `expected` asks for. */
function callMatches(
  expected: ExpectedToolCall,
  call: ScoredToolCall,
  how: ArgumentMatch,
): boolean {
  return expected.name === call.name && argumentsMatch(expected.arguments, call.arguments, how);
}

/**
 * The longest run of expected calls matched in their order (a longest common subsequence, with
 * `callMatches` as equality): which expected calls and which calls it pairs.
 */
function inOrder(
  expected: readonly ExpectedToolCall[],
  calls: readonly ScoredToolCall[],
  how: ArgumentMatch,
): { usedExpected: boolean[]; usedCalls: boolean[] } {
  const n = expected.length;
  const m = calls.length;
  const width = m + 1;
  const table = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      table[i * width + j] = callMatches(expected[i]!, calls[j]!, how)
        ? table[(i + 1) * width + j + 1]! + 1
        : Math.max(table[(i + 1) * width + j]!, table[i * width + j + 1]!);
  const usedExpected = new Array<boolean>(n).fill(false);
  const usedCalls = new Array<boolean>(m).fill(false);
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (
      callMatches(expected[i]!, calls[j]!, how) &&
      table[i * width + j] === table[(i + 1) * width + j + 1]! + 1
    ) {
      usedExpected[i] = true;
      usedCalls[j] = true;
      i++;
      j++;
    } else if (table[(i + 1) * width + j]! >= table[i * width + j + 1]!) i++;
    else j++;
  }
  return { usedExpected, usedCalls };
}

/** The most expected calls each matched by a call of its own, in any order (bipartite matching). */
function unordered(
  expected: readonly ExpectedToolCall[],
  calls: readonly ScoredToolCall[],
  how: ArgumentMatch,
): { usedExpected: boolean[]; usedCalls: boolean[] } {
  const callOf = new Array<number>(expected.length).fill(-1);
  const expectedOf = new Array<number>(calls.length).fill(-1);
  const candidates = expected.map((e) =>
    calls.flatMap((call, j) => (callMatches(e, call, how) ? [j] : [])),
  );
  const augment = (i: number, seen: boolean[]): boolean => {
    for (const j of candidates[i]!) {
      if (seen[j]) continue;
      seen[j] = true;
      if (expectedOf[j] === -1 || augment(expectedOf[j]!, seen)) {
        callOf[i] = j;
        expectedOf[j] = i;
        return true;
      }
    }
    return false;
  };
  for (let i = 0; i < expected.length; i++)
    augment(i, new Array<boolean>(calls.length).fill(false));
  return { usedExpected: callOf.map((j) => j !== -1), usedCalls: expectedOf.map((i) => i !== -1) };
}

/** Matches the thread's calls against the expected ones (see `TrajectoryMode`). */
export function matchTrajectory(
  expected: readonly ExpectedToolCall[],
  calls: readonly ScoredToolCall[],
  mode: TrajectoryMode,
  how: ArgumentMatch,
): TrajectoryMatch {
  const { usedExpected, usedCalls } =
    mode === 'in-order' ? inOrder(expected, calls, how) : unordered(expected, calls, how);
  const missing = expected.filter((_, i) => !usedExpected[i]);
  const extra = calls.filter((_, j) => !usedCalls[j]);
  const outOfOrder =
    mode === 'in-order'
      ? missing.filter((e) => calls.some((call) => callMatches(e, call, how)))
      : [];
  return { matched: expected.length - missing.length, missing, outOfOrder, extra };
}
