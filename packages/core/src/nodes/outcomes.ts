import type { NodeOutcome } from './node-handler.js';

// Every outcome the built-in handlers return is made here, with the same three fields: one hidden
// class, kept alive by the nodes every thread runs. An outcome that only the root of a fan-out
// returns (MAP, JOIN, END) would otherwise have a class of its own that V8 drops at the next full
// GC; the run loop, specialised to the classes it had seen, was thrown away and rebuilt at the end
// of every fan-out (docs/decisions/0010-stable-shapes-between-bursts.md).

function outcome(kind: 'next' | 'end', output: unknown, status: string | undefined): NodeOutcome {
  return { kind, output, status } as NodeOutcome;
}

// Shared by every node that completes with no output and no status (VARIABLE, ROUTE, context
// processors…): one allocation fewer per step. Not frozen, so it keeps the class of the others;
// nothing writes to an outcome.
const PLAIN_NEXT = outcome('next', undefined, undefined);

/** The node completed; the thread goes on along its edges. */
export function nextOutcome(output?: unknown, status?: string): NodeOutcome {
  return output === undefined && status === undefined
    ? PLAIN_NEXT
    : outcome('next', output, status);
}

/** The node completed and ends the thread with `output`. */
export function endOutcome(output: unknown): NodeOutcome {
  return outcome('end', output, undefined);
}
