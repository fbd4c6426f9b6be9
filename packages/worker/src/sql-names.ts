import { createHash } from 'node:crypto';

/** The graphile-worker task every Skein job runs under. */
export const THREAD_TASK = 'skein_thread';

/** First key of every per-thread advisory lock ("skth" in ASCII), so they share one namespace. */
export const THREAD_LOCK_NAMESPACE = 0x736b7468;

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** True for a schema name we can splice into SQL unquoted-safe (quoted anyway). */
export function isPlainIdentifier(name: string): boolean {
  return IDENTIFIER.test(name);
}

/** A double-quoted identifier; only plain names reach here (checked by the options). */
export function quoteIdentifier(name: string): string {
  return `"${name}"`;
}

function digest(text: string, length: number): string {
  return createHash('sha1').update(text).digest('hex').slice(0, length);
}

/**
 * The NOTIFY channel of one thread's events. Channel names are identifiers of at most 63 bytes,
 * and thread ids can be longer or hold any character, so the channel is a digest of schema and id.
 */
export function threadChannel(schema: string, threadId: string): string {
  return `skein_t_${digest(`${schema}\u0000${threadId}`, 40)}`;
}

/** The channel cancellations of one worker schema are announced on. */
export function cancelChannel(schema: string): string {
  return `skein_cancel_${digest(schema, 16)}`;
}

/** The channel a freed slot of one concurrency limit is announced on. */
export function slotChannel(key: string): string {
  return `skein_slot_${digest(key, 32)}`;
}

/**
 * The graphile-worker queue of one event name's signal jobs: a named queue runs one job at a time,
 * in the order added, so two events of one name are delivered in the order they were sent (a
 * thread waiting for either takes the first). Queue names hold at most 128 characters; event names
 * are any length, so this is a digest.
 */
export function signalQueue(name: string): string {
  return `skein_signal_${digest(name, 40)}`;
}
