import type { PauseKindName, PauseOf, PendingInteraction } from './pending-interaction.js';

/** `pending` when it is a pause of `kind`: what one kind's own code (its node) needs to narrow. */
export function pauseOfKind<K extends PauseKindName>(
  pending: PendingInteraction | undefined,
  kind: K,
): PauseOf<K> | undefined {
  return pending?.kind === kind ? (pending as PauseOf<K>) : undefined;
}

/** What a node handler is run with, as far as finding its own pause goes. */
interface ResumedNode {
  readonly resume?: unknown;
  readonly thread: { readonly state: { readonly pending?: PendingInteraction } };
  readonly node: { readonly id: string };
}

/**
 * The node's own pause of `kind` when this run resumes it, else undefined (the node runs fresh).
 * A pending of another node, or of another kind, is not this node's to finish.
 */
export function resumedPause<K extends PauseKindName>(
  ctx: ResumedNode,
  kind: K,
): PauseOf<K> | undefined {
  if (!ctx.resume) return undefined;
  const pending = pauseOfKind(ctx.thread.state.pending, kind);
  return pending?.nodeId === ctx.node.id ? pending : undefined;
}
