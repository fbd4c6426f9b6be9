import {
  type CheckContentOptions,
  type ContentPart,
  checkContent,
  encodeBase64,
  type MessageContent,
} from '@skein/spec';

function isBytes(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array;
}

// Inline bytes become base64 here because stored messages are JSON (checkpoints, the stores'
// message rows): a Uint8Array would not survive the round trip. Stores will swap inline data for
// refs by digest later (decision 0031); until then base64 is the stored form.
function storedPart(part: ContentPart): ContentPart {
  if (part.type === 'text') return Object.freeze({ type: 'text', text: part.text });
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(part)) {
    if (value === undefined) continue;
    if (key === 'data' && isBytes(value)) copy.data = encodeBase64(value);
    else if (key === 'ref') copy.ref = Object.freeze({ ...(value as object) });
    else copy[key] = value;
  }
  return Object.freeze(copy) as unknown as ContentPart;
}

/**
 * A message's content as it is stored: a string as given (`null` and `undefined` as `''`, as
 * before parts); parts checked with `checkContent` (an `InvalidArgumentError` naming the part,
 * `message.content[1]`) and copied, frozen, with inline bytes as base64.
 */
export function storedContent(
  content: unknown,
  where: string,
  options?: CheckContentOptions,
): MessageContent {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  const parts = checkContent(content, where, options) as readonly ContentPart[];
  return Object.freeze(parts.map(storedPart));
}
