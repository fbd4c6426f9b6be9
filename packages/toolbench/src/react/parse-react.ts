import { parseReActReference, type ReferenceReActResult } from './reference-parser.js';
import { parseReActTolerant, type ReActStep } from './tolerant-parser.js';

export type ReActParseMode = 'reference' | 'tolerant';

/**
 * Parses a ToolLLaMA reply. `mode: 'reference'` is StableToolBench's `react_parser` exactly
 * (three raw strings, never an error); `mode: 'tolerant'` (the default) returns a `ReActStep` or
 * throws `ToolBenchError` (`REACT_PARSE_ERROR`).
 */
export function parseReAct(
  text: string,
  options: { readonly mode: 'reference' },
): ReferenceReActResult;
export function parseReAct(text: string, options?: { readonly mode?: 'tolerant' }): ReActStep;
export function parseReAct(
  text: string,
  options: { readonly mode?: ReActParseMode } = {},
): ReferenceReActResult | ReActStep {
  return options.mode === 'reference' ? parseReActReference(text) : parseReActTolerant(text);
}
