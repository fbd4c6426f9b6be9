import { CheckpointNotFoundError, SkeinError } from '@skein/spec';
import { ThreadError } from '../errors/thread-error.js';
import type { SkeinEmitter } from '../events/emitter.js';
import { openEventWait } from '../pauses/event.js';
import { pauseOfKind } from '../pauses/pause-of-kind.js';
import { saveCheckpoint, saveRefusal } from '../run/checkpointing.js';
import { resumeConflict } from '../run/resume-conflict.js';
import type { StartedRun } from '../run/thread-executor.js';
import type { ThreadState } from '../thread/thread-state.js';
import { checkSignal, deliverTo, type SignalHost } from './deliver-signal.js';
import { newWebhookToken, parseWebhookToken, webhookSecretMatches } from './webhook-token.js';

/** What a webhook call did. */
export type WebhookDelivery =
  | { readonly status: 'delivered'; readonly threadId: string; readonly run: StartedRun }
  /** No such token, or the wait it was made for is over. */
  | { readonly status: 'not-found' }
  /** The wait was already claimed (an earlier call, a signal, its timeout). */
  | { readonly status: 'taken'; readonly threadId: string }
  /** The payload does not satisfy the wait's `match`; the thread waits on. */
  | { readonly status: 'no-match'; readonly threadId: string };

/**
 * Makes a webhook for a thread WAITING at a WAIT_FOR_EVENT: stores the hash of a new token with
 * the wait (a checkpoint continuing the waiting one, so it survives a restart) and returns the
 * token. A second call replaces the first token.
 */
export async function createWebhook(
  host: SignalHost & { readonly emitter: SkeinEmitter },
  threadId: string,
): Promise<string> {
  const thread = await host.load(threadId);
  if (!thread) throw new CheckpointNotFoundError(threadId);
  const pending = thread.state.pending;
  if (thread.status !== 'WAITING' || !openEventWait(pending))
    throw ThreadError.state(
      threadId,
      thread.status,
      'only a thread WAITING at a WAIT_FOR_EVENT node can have a webhook',
    );
  const { token, tokenHash } = newWebhookToken(threadId);
  const before = thread.state;
  thread.dispatch({
    type: 'webhook-created',
    webhook: { tokenHash, createdAt: new Date().toISOString() },
  });
  try {
    await saveCheckpoint(host.store, thread, host.emitter);
  } catch (error) {
    const reason = saveRefusal(thread, error);
    thread.dispatch({ type: 'restored', state: before });
    // The wait was claimed meanwhile: there is nothing left to make a webhook for.
    if (SkeinError.hasCode(reason, 'CHECKPOINT_CONFLICT')) throw resumeConflict(thread, reason);
    throw reason;
  }
  return token;
}

/**
 * Turns a webhook call into its thread's event: the token's secret is checked against the stored
 * hash in constant time, then the wait is claimed with `payload` like a signal (exactly once,
 * however many calls race).
 */
export async function deliverWebhook(
  host: SignalHost,
  token: string,
  payload: unknown,
): Promise<WebhookDelivery> {
  const parsed = typeof token === 'string' ? parseWebhookToken(token) : undefined;
  if (!parsed) return { status: 'not-found' };
  const { threadId, secret } = parsed;
  const stored = await host.store.load(threadId);
  const pending = pauseOfKind((stored?.state as ThreadState | undefined)?.pending, 'event');
  if (!pending?.webhook) return { status: 'not-found' };
  if (!webhookSecretMatches(secret, pending.webhook.tokenHash)) return { status: 'not-found' };
  checkSignal(pending.event, payload);
  if (pending.answer) return { status: 'taken', threadId };
  const thread = await host.load(threadId);
  if (!thread) return { status: 'not-found' };
  const outcome = await deliverTo(host, thread, pending.event, payload);
  if (outcome === 'no-match') return { status: 'no-match', threadId };
  if (!outcome) return { status: 'taken', threadId };
  outcome.result.catch(() => undefined);
  return { status: 'delivered', threadId, run: outcome };
}
