import type { Attributes, AttributeValue } from '@opentelemetry/api';

/** The cap on attribute values and status messages when `maxAttributeLength` is not given. */
export const DEFAULT_MAX_ATTRIBUTE_LENGTH = 4096;

/**
 * `text` at most `limit` characters long: when longer, its start and a marker saying how many
 * characters were cut (`…[truncated 8384538 chars]` for 8 MB at 4,096). The marker counts
 * towards the limit, so an SDK that cuts at the same limit leaves it in place.
 */
export function bounded(text: string, limit: number): string {
  if (text.length <= limit) return text;
  // Sized for the longest count possible, then for the count that room gives: the count can
  // only shrink, so the result never exceeds the limit.
  let room = limit - marker(text.length).length;
  // Too small for a marker: a plain cut, as the SDK would make.
  if (room <= 0) return text.slice(0, limit);
  room = limit - marker(text.length - room).length;
  const code = text.charCodeAt(room - 1);
  // A surrogate pair cut in half is not valid UTF-16, and exporters reject or mangle it.
  const kept = code >= 0xd800 && code <= 0xdbff ? room - 1 : room;
  return text.slice(0, kept) + marker(text.length - kept);
}

function marker(cut: number): string {
  return `…[truncated ${cut} chars]`;
}

/** A value with its strings (and string array items) bounded; itself when none is too long. */
export function boundedValue(value: AttributeValue, limit: number): AttributeValue {
  if (typeof value === 'string') return value.length > limit ? bounded(value, limit) : value;
  if (!Array.isArray(value)) return value;
  let copy: (string | null | undefined)[] | undefined;
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (typeof item !== 'string' || item.length <= limit) continue;
    copy ??= (value as (string | null | undefined)[]).slice();
    copy[i] = bounded(item, limit);
  }
  return copy ?? value;
}

/** Attributes with every value bounded; the same object when none is too long (the usual case). */
export function boundedAttributes(attributes: Attributes, limit: number): Attributes {
  let copy: Attributes | undefined;
  for (const key in attributes) {
    const value = attributes[key];
    if (value === undefined) continue;
    const kept = boundedValue(value, limit);
    if (kept === value) continue;
    copy ??= Object.assign({}, attributes);
    copy[key] = kept;
  }
  return copy ?? attributes;
}
