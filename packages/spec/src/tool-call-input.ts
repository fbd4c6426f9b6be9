/**
 * A tool call's arguments as the object a protocol carries them in (MCP's `tool_use.input`, say):
 * the model's JSON text parsed, or `{}` when it is not a JSON object (a model that wrote
 * something else gave no arguments a schema could read).
 */
export function toolCallInput(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
