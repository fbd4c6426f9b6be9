/**
 * PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; stay a little under, with room for
 * the envelope.
 */
export const MAX_NOTIFY_BYTES = 7_900;

/** A field longer than this is dropped first when an event must shrink. */
const SMALL_FIELD_BYTES = 256;

/** A message's content may run to megabytes (its files); its role and metadata are small. */
const MESSAGE_HEAD_BYTES = 2_048;

/**
 * A message without its content: its role, tool call id and metadata, which say whose it is (a
 * chat page matches the message it sent by the id in its metadata). Undefined for anything else.
 */
function messageHead(value: unknown): object | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { role, toolCallId, metadata } = value as Record<string, unknown>;
  if (typeof role !== 'string') return undefined;
  const head = {
    role,
    ...(typeof toolCallId === 'string' ? { toolCallId } : {}),
    ...(metadata === undefined ? {} : { metadata }),
  };
  return bytesOf(JSON.stringify(head)) <= MESSAGE_HEAD_BYTES ? head : undefined;
}

function bytesOf(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * The NOTIFY payload of one event: its JSON when it fits, else the event with its large fields
 * dropped (their names listed in `truncated.omitted`), else only its name and thread id.
 */
export function encodeEvent(event: string, data: object, limit = MAX_NOTIFY_BYTES): string {
  const whole = JSON.stringify({ event, data });
  const bytes = bytesOf(whole);
  if (bytes <= limit) return whole;
  const kept: Record<string, unknown> = {};
  const omitted: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    const text = JSON.stringify(value);
    if (text !== undefined && bytesOf(text) <= SMALL_FIELD_BYTES) kept[key] = value;
    else {
      const head = messageHead(value);
      if (head) {
        kept[key] = head;
        omitted.push(`${key}.content`);
      } else omitted.push(key);
    }
  }
  const smaller = JSON.stringify({ event, data: kept, truncated: { bytes, omitted } });
  if (bytesOf(smaller) <= limit) return smaller;
  const threadId = (data as { threadId?: unknown }).threadId;
  const bare = typeof threadId === 'string' && bytesOf(threadId) <= 1_000 ? { threadId } : {};
  const named = JSON.stringify({
    event,
    data: bare,
    truncated: { bytes, omitted: Object.keys(data).filter((key) => !(key in bare)) },
  });
  // Even the field names can be too long (an event is plain data): then say only that all went.
  return bytesOf(named) <= limit
    ? named
    : JSON.stringify({ event, data: bare, truncated: { bytes, omitted: ['*'] } });
}
