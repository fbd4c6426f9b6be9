import { isToolOutput, toolOutput } from '@skein/spec';

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
 * parts joined, image and file parts kept as `data`, a Skein `ToolOutput` carried through, any other
 * value left for the engine to JSON-serialise.
 */
export function fromFunctionToolOutput(output: unknown): unknown {
  if (typeof output === 'string' || isToolOutput(output)) return output;
  if (output === undefined) return '';
  const parts = asStructuredParts(output);
  if (!parts) return output;
  const text = parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
  const others = parts.filter((p) => p.type !== 'text');
  if (others.length === 0) return text;
  const described = others.map((p) => `[${p.type}]`).join(' ');
  return toolOutput({ content: text.length > 0 ? text : described, data: { parts: others } });
}
