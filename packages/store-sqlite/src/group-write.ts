import type { EncodedCheckpoint } from '@skein/core/store-kit';
import type { LeaseRequest } from '@skein/spec';

/**
 * A call the store hands to its group commit, written in call order with the others of its turn.
 * `kind` is the call's name, so an error says which call it refused.
 */
export type GroupWrite =
  | { readonly kind: 'save'; readonly checkpoint: EncodedCheckpoint }
  | { readonly kind: 'acquireLease'; readonly threadId: string; readonly lease: LeaseRequest }
  | { readonly kind: 'releaseLease'; readonly threadId: string; readonly owner: string };

/** What writing one returned: whether `acquireLease` got the lease; nothing for the others. */
export type WriteResult = boolean | undefined;
