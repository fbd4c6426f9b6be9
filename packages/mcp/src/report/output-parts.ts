import { CONTENT_PART_TYPES, type ContentPart, contentProblem } from '@skein/spec';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function looksLikeParts(value: unknown): value is readonly unknown[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((item) => isObject(item) && CONTENT_PART_TYPES.includes(item.type as never))
  );
}

/**
 * The content parts a workflow's END output names, or undefined when it names none: the output
 * itself as a list of parts, or an object whose `content` is one (its other fields stay in the
 * structured report). Parts that `checkContent` would refuse count as no parts, so such an output
 * is answered as JSON text, as every output was before parts: the author sees what was sent.
 */
export function outputParts(output: unknown): readonly ContentPart[] | undefined {
  const candidate = isObject(output) ? output.content : output;
  if (!looksLikeParts(candidate)) return undefined;
  // The engine already stored this output; its size is the app's business, not this answer's.
  return contentProblem(candidate, 'output', { maxAttachmentBytes: Number.POSITIVE_INFINITY }) ===
    undefined
    ? (candidate as readonly ContentPart[])
    : undefined;
}
