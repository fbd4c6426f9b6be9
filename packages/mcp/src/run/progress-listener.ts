import type { ThreadEventListener } from '@skein/core';
import type { CallExtra } from './call-extra.js';

/**
 * A listener that tells the client of each node the thread (or one of its branches) starts, as
 * MCP progress notifications: only when the call carried a progress token, which is how a client
 * asks for them. `progress` counts the nodes started in this call (no total: a workflow's path is
 * not known in advance); `message` names the node, with the branch path for a branch's nodes.
 * `sent()` resolves once every notification so far is written.
 */
export function progressListener(
  extra: CallExtra,
  nodeName: (nodeId: string) => string,
): { readonly listener: ThreadEventListener; sent(): Promise<unknown> } | undefined {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  let progress = 0;
  // One after another, and all written before the call's result: a client drops progress that
  // arrives after the response it belongs to.
  let sending: Promise<unknown> = Promise.resolve();
  const listener: ThreadEventListener = (event) => {
    if (event.type !== 'node:started') return;
    progress += 1;
    const message =
      event.branchPath === undefined
        ? `${nodeName(event.nodeId)} (${event.nodeType})`
        : `${event.branchPath}: ${event.nodeId} (${event.nodeType})`;
    // A client that went away cannot be told; the run goes on (or is cancelled by the SDK).
    const params = { progressToken, progress, message };
    sending = sending
      .then(() => extra.sendNotification({ method: 'notifications/progress', params }))
      .catch(() => undefined);
  };
  return { listener, sent: () => sending };
}
