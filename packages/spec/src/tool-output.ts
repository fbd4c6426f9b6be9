import type { ContentPart, MessageContent } from './content/content-part.js';
import { contentText } from './content/content-text.js';

// Symbol.for, so a ToolOutput made by one copy of Skein is recognised by another.
const OUTPUT = Symbol.for('skein.tool-output');

/**
 * A tool result with an explicit error flag and optional structured data. Its content reaches the
 * model verbatim, error or not: the tool chose the words.
 */
export interface ToolOutput {
  readonly [OUTPUT]: true;
  /** The result's text: all of it, or the text parts of `parts` joined (see `contentText`). */
  readonly content: string;
  /**
   * The result as parts, when the tool gave parts (an image or a file next to its text). Absent
   * for a text result. The engine stores `content` as the tool message's first text part and
   * the media parts of `parts` after it.
   */
  readonly parts?: readonly ContentPart[];
  readonly isError: boolean;
  /** Structured data kept beside the text (stored in the tool message's `metadata.data`). */
  readonly data?: unknown;
}

/**
 * Makes a tool result. `content` is text, or a list of parts (checked with `checkContent` where
 * the engine stores the result, with its limits, not here).
 */
export function toolOutput(output: {
  content: MessageContent;
  isError?: boolean;
  data?: unknown;
}): ToolOutput {
  const { content } = output;
  // Anything but an array is kept as given, as before parts (the engine checks what it stores).
  const parts = Array.isArray(content) ? (content as readonly ContentPart[]) : undefined;
  return {
    [OUTPUT]: true,
    content: parts ? contentText(parts) : (content as string),
    ...(parts ? { parts } : {}),
    isError: output.isError ?? false,
    ...(output.data === undefined ? {} : { data: output.data }),
  };
}

export function isToolOutput(value: unknown): value is ToolOutput {
  return typeof value === 'object' && value !== null && OUTPUT in value;
}
