import { pythonJsonDumps } from '../python/python-json.js';
import { hasSurrogates, pyTake } from '../python/python-text.js';

export interface FunctionResponse {
  readonly error: string;
  readonly response: unknown;
}

export interface FormatFunctionResponseOptions {
  /** Cut the observation to this many characters and append `...` when it is longer. */
  readonly maxLength?: number;
  /**
   * Escape non-ASCII text as `\uXXXX`, as StableToolBench's `json.dumps` default does. Default
   * false: the original design's `ensure_ascii=False`, so the model reads `café` and `北京`, and
   * the cut counts those characters, not their escapes. Set it for byte equality with recorded runs.
   */
  readonly ensureAscii?: boolean;
}

/** The reference's default `max_observation_length` (qa_pipeline.py L20). */
export const DEFAULT_MAX_OBSERVATION_LENGTH = 1024;

function codePointLength(text: string): number {
  if (!hasSurrogates(text)) return text.length;
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * `obs[:max] + "..."` when the observation is longer than `max` (rapidapi.py L292-296): the whole
 * observation text is cut (escapes count as the characters they are written with), in Python
 * characters (code points), so an emoji is one character, as it is to the reference.
 */
export function truncateObservation(observation: string, maxLength: number | undefined): string {
  // A string has at most as many code points as UTF-16 units.
  if (maxLength === undefined || observation.length <= maxLength) return observation;
  if (codePointLength(observation) <= maxLength) return observation;
  return `${pyTake(observation, maxLength)}...`;
}

/**
 * What the model sees as a function's result: the bare JSON string `{"error": …, "response": …}`
 * written as Python's `json.dumps` writes it (`", "`/`": "` separators; non-ASCII as is, or as
 * `\uXXXX` with `ensureAscii`), no surrounding newlines, optionally cut to `maxLength` plus `...`.
 */
export function formatFunctionResponse(
  reply: FunctionResponse,
  options: FormatFunctionResponseOptions = {},
): string {
  const text = pythonJsonDumps(
    { error: reply.error, response: reply.response },
    { ensureAscii: options.ensureAscii ?? false },
  );
  return truncateObservation(text, options.maxLength);
}
