import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { mersenne } from 'pure-rand/generator/mersenne';

/**
 * A seeded generator of numbers in [0, 1), pure-rand's Mersenne Twister, to draw resample
 * indices. Not for anything secret. Each call gets its own state, so two bootstraps with the same
 * seed draw the same indices whatever ran before them. (Mersenne, not xoroshiro: xoroshiro128plus
 * seeded with a small integer draws close to 1 first.)
 */
export function seededRandom(seed: number): () => number {
  const rng = mersenne(seed >>> 0);
  return () => uniformFloat64(rng);
}
