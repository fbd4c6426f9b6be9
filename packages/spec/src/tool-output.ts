// Symbol.for, so a ToolOutput made by one copy of Skein is recognised by another.
const OUTPUT = Symbol.for('skein.tool-output');

/**
 * A tool result with an explicit error flag and optional structured data. Its content reaches the
 * model verbatim, error or not: the tool chose the words.
 */
export interface ToolOutput {
  readonly [OUTPUT]: true;
  readonly content: string;
  readonly isError: boolean;
  /** Structured data kept beside the text (stored in the tool message's `metadata.data`). */
  readonly data?: unknown;
}

export function toolOutput(output: {
  content: string;
  isError?: boolean;
  data?: unknown;
}): ToolOutput {
  return {
    [OUTPUT]: true,
    content: output.content,
    isError: output.isError ?? false,
    ...(output.data === undefined ? {} : { data: output.data }),
  };
}

export function isToolOutput(value: unknown): value is ToolOutput {
  return typeof value === 'object' && value !== null && OUTPUT in value;
}
