import { type ContentPart, isMediaPart, isToolOutput, toolOutput } from '@skein/spec';
import { agentsMediaPart } from './agents-media-part.js';
import { jsonSafeOutput } from './json-safe-output.js';

/** The Agents SDK's structured tool outputs (`{ type: 'text' | 'image' | 'file', … }`). */
type StructuredPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image' | 'file' };

function asStructuredPart(value: unknown): StructuredPart | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const type = (value as { type?: unknown }).type;
  if (type === 'text')
    return typeof (value as { text?: unknown }).text === 'string'
      ? (value as StructuredPart)
      : undefined;
  return type === 'image' || type === 'file' ? (value as StructuredPart) : undefined;
}

function asStructuredParts(output: unknown): StructuredPart[] | undefined {
  const items = Array.isArray(output) ? output : [output];
  if (items.length === 0) return undefined;
  const parts: StructuredPart[] = [];
  for (const item of items) {
    const part = asStructuredPart(item);
    if (!part) return undefined;
    parts.push(part);
  }
  return parts;
}

/**
 * A FunctionTool's output as a Skein tool result: strings as they are, the SDK's structured text
 * parts joined, image and file outputs as image and file parts the model sees (see
 * `agentsMediaPart`), a Skein `ToolOutput` carried through, any other value left for the engine
 * to JSON-serialise.
 *
 * `data.parts` holds the outputs that became neither text nor a media part; an image or file
 * output's bytes are in its part only: stored once, by digest (decision 0033), never a second time
 * in the tool message's metadata.
 */
export function fromFunctionToolOutput(output: unknown): unknown {
  if (typeof output === 'string' || isToolOutput(output)) return output;
  if (output === undefined) return '';
  const parts = asStructuredParts(output);
  if (!parts) return output;
  const texts: string[] = [];
  const media: ContentPart[] = [];
  // Outputs that became neither text nor a media part are kept in `data`; a media output's bytes
  // go only in its part, so a store holds them once (by digest).
  const kept: typeof parts = [];
  for (const p of parts) {
    const part = p.type === 'text' ? p : agentsMediaPart(p);
    if (isMediaPart(part)) media.push(part);
    else texts.push(part.text);
    if (p.type !== 'text' && !isMediaPart(part)) kept.push(p);
  }
  const others = parts.filter((p) => p.type !== 'text');
  if (others.length === 0) return texts.join('\n');
  const described = others.map((p) => `[${p.type}]`).join(' ');
  const text = texts.length > 0 ? texts.join('\n') : described;
  return toolOutput({
    // The text as one part first: the engine stores a result's text before its media anyway.
    content: media.length > 0 ? [{ type: 'text', text }, ...media] : text,
    ...(kept.length > 0 ? { data: { parts: kept.map(jsonSafeOutput) } } : {}),
  });
}
