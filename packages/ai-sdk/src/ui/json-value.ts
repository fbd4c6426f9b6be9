/** What `parseJson` answers for text that is not JSON. */
export const NOT_JSON: unique symbol = Symbol('not JSON');

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

/**
 * A tool's stored result as the UI shows it: the JSON value the text holds, or the text itself
 * when it is not JSON (a tool may answer in plain words).
 */
export function jsonOrText(text: string): unknown {
  const value = parseJson(text);
  return value === NOT_JSON ? text : value;
}
