import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { ThreadEventListener } from '@skein/core';
import { eventLogEntry } from './event-log.js';
import type { LogLevel } from './log-level.js';

/** The logger name clients see on Skein's messages. */
const LOGGER = 'skein';

/**
 * A listener that tells the client of its call's thread events as MCP log messages
 * (`notifications/message`) at or above the level the connection set, on the call's own stream:
 * undefined when the connection set no level. `sent()` resolves once every message so far is
 * written, so a call's result never overtakes its log.
 */
export function logListener(
  extra: { sendNotification(notification: ServerNotification): Promise<void> },
  level: LogLevel,
): { readonly listener: ThreadEventListener; sent(): Promise<unknown> } | undefined {
  if (!level.sends('emergency')) return undefined;
  let sending: Promise<unknown> = Promise.resolve();
  const listener: ThreadEventListener = (event) => {
    const entry = eventLogEntry(event);
    if (entry === undefined || !level.sends(entry.level)) return;
    const params = { level: entry.level, logger: LOGGER, data: entry.data };
    // A client that went away cannot be told; the run goes on.
    sending = sending
      .then(() => extra.sendNotification({ method: 'notifications/message', params }))
      .catch(() => undefined);
  };
  return { listener, sent: () => sending };
}
