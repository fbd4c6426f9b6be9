import type { ThreadEventListener } from '@skein/core';
import type { CallExtra } from './call-extra.js';

/**
 * A listener that tells the client of each node the thread (or one of its branches) starts, as
 * MCP progress notifications: only when the call carried a progress token, which is how a client
 * asks for them. `progress` counts the nodes started in this call (no total: a workflow's path is
 * not known in advance); `message` names the node, with the branch path for a branch's nodes.
 */
export function progressListener(
  extra: CallExtra,
  nodeName: (nodeId: string) => string,
): ThreadEventListener | undefined {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  let progress = 0;
  return (event) => {
    if (event.type !== 'node:started') return;
    progress += 1;
    const message =
      event.branchPath === undefined
        ? `${nodeName(event.nodeId)} (${event.nodeType})`
        : `${event.branchPath}: ${event.nodeId} (${event.nodeType})`;
    // A client that went away cannot be told; the run goes on (or is cancelled by the SDK).
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken, progress, message },
      })
      .catch(() => undefined);
  };
}
