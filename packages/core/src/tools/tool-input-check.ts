import { findNonJsonValue } from '@skein/spec';
import type { ToolInputRequest } from './tool-input.js';

/**
 * A tool's request for input as the pause stores it, or what is wrong with it: the prompt is
 * text, the schema an object or a boolean, and the state plain JSON (it is stored).
 */
export function checkInputRequest(
  request: ToolInputRequest,
): { readonly request: ToolInputRequest } | { readonly problem: string } {
  const { prompt, input, state } = request;
  if (typeof prompt !== 'string' || prompt.trim() === '')
    return { problem: 'prompt must be a non-empty string' };
  if (
    input !== undefined &&
    typeof input !== 'boolean' &&
    (typeof input !== 'object' || input === null || Array.isArray(input))
  )
    return { problem: 'input must be a JSON Schema (an object or a boolean)' };
  const found = findNonJsonValue({ input, state }, 'request');
  if (found) return { problem: `${found.path.replace(/^request\./, '')} is ${found.reason}` };
  return {
    request: {
      prompt,
      ...(input === undefined ? {} : { input }),
      ...(state === undefined ? {} : { state }),
    },
  };
}
