import { pyFindSlice } from '../python/python-text.js';

/** What StableToolBench's `react_parser` returns: three raw strings, never an error. */
export interface ReferenceReActResult {
  readonly thought: string;
  readonly action: string;
  readonly actionInput: string;
}

/**
 * `react_parser` of StableToolBench (toolbench/inference/utils.py L34-38), reproduced exactly:
 * the first occurrence of each marker anywhere in the text, the Action Input running to the end,
 * nothing trimmed, and Python's slice results when a marker is missing.
 */
export function parseReActReference(text: string): ReferenceReActResult {
  return {
    thought: pyFindSlice(text, 'Thought: ', '\nAction: '),
    action: pyFindSlice(text, 'Action: ', '\nAction Input: '),
    actionInput: pyFindSlice(text, 'Action Input: '),
  };
}
