/** The current time as ISO text. */
export function isoNow(): string {
  return new Date().toISOString();
}
