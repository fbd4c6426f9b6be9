/** The floor: one promise per item, gathered by `Promise.all` (in item order). */
export async function plainAll(items: readonly number[]): Promise<number[]> {
  return Promise.all(items.map(async (x) => x * 2));
}
