import { pythonJsonDumps } from '../python/python-json.js';

export interface FunctionResponse {
  readonly error: string;
  readonly response: unknown;
}

export interface FormatFunctionResponseOptions {
  /** Cut the observation to this many characters and append `...` when it is longer. */
  readonly maxLength?: number;
}

/** The reference's default `max_observation_length` (qa_pipeline.py L20). */
export const DEFAULT_MAX_OBSERVATION_LENGTH = 1024;

/**
 * `obs[:max] + "..."` when the observation is longer than `max` (rapidapi.py L292-296).
 * Observations are ASCII (json.dumps escapes the rest), so characters and code points agree.
 */
export function truncateObservation(observation: string, maxLength: number | undefined): string {
  if (maxLength === undefined || observation.length <= maxLength) return observation;
  return `${observation.slice(0, maxLength)}...`;
}

/**
 * What the model sees as a function's result: the bare JSON string `{"error": …, "response": …}`
 * written as Python's `json.dumps` writes it (`", "`/`": "` separators, non-ASCII as `\uXXXX`), no
 * surrounding newlines, optionally cut to `maxLength` plus `...`.
 */
export function formatFunctionResponse(
  reply: FunctionResponse,
  options: FormatFunctionResponseOptions = {},
): string {
  const text = pythonJsonDumps({ error: reply.error, response: reply.response });
  return truncateObservation(text, options.maxLength);
}
