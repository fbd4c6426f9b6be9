import type { ThreadContext } from '../thread/thread-context.js';

// V8 drops a hidden class (a "map") as soon as no object has it, and with it every optimised
// function that was specialised to it. Between two bursts of work (a fan-out's next run, a server's
// next request, a dataset's next batch after a full GC) no thread is alive, so every map of
// ThreadContext, ConversationManager and what they hold would go, and the hot paths would be
// re-optimised from scratch each time: measured, 20-60 re-optimisations and a 2-5x slower fan-out
// per burst (docs/decisions/0007-keeping-shapes-alive.md). Keeping the last finished root thread
// and the last finished branch or child thread keeps those maps, at the cost of holding two
// finished threads until the next ones finish.
// Every field written out from the start: a field added later changed this object's class, and
// the code that had inlined a store to it was thrown away at that moment (`finishThread` at the
// end of a fan-out, when the first root ended after the branches).
const kept: {
  root: ThreadContext | undefined;
  child: ThreadContext | undefined;
  context: object | undefined;
  fanOut: object | undefined;
} = { root: undefined, child: undefined, context: undefined, fanOut: undefined };

/** Keeps `thread` referenced until the next thread of its kind (root, or branch/child) finishes. */
export function keepShapesOf(thread: ThreadContext): void {
  if (thread.state.parent) kept.child = thread;
  else kept.root = thread;
}

/**
 * Keeps the last handler context referenced: it lives only while its node runs, so between two
 * bursts of work none is left, and the run loop and every handler specialised to its class went
 * with it.
 */
export function keepShapeOfContext(context: object): void {
  kept.context = context;
}

/** Keeps a light copy of the last fan-out's shared state (see `runChildren`). */
export function keepShapeOfFanOut(copy: object): void {
  kept.fanOut = copy;
}
