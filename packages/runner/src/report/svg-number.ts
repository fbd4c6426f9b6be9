/** A coordinate with at most 2 decimals: enough on any screen, and a page half the size. */
export function px(value: number): string {
  return String(Math.round(value * 100) / 100);
}
