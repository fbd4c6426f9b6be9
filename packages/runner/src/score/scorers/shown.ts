/** The longest value a reason quotes. */
const MAX_SHOWN = 200;

/** A value as a reason quotes it: JSON, cut to 200 characters. */
export function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
}
