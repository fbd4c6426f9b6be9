import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { mersenne } from 'pure-rand/generator/mersenne';

// The coins of the ToolBench pass rate, seeded.
//
// The reference throws a coin with Python's global `random` in two places: a round whose
// `is_passed` is Unsure counts as passed when `random.random() < 0.5` (StableToolBench
// `toolbench/tooleval/eval_pass_rate.py` L114-117 at 45b9007, ToolBench `eval_pass_rate.py`
// L108-112 at d56fdd8), and a tie of passed and failed rounds gets the CSV label `passed` when
// `random.random() < 0.5` (L39 there, ToolBench L35). `utils.py` L6 seeds that generator with 42,
// but the draws also serve `random.choice(evaluators)` (L61) and happen in thread-completion
// order, so no run is reproducible there. Here each coin comes from its own seed (the run's seed,
// the query id and the round), so a seed gives the same coins every time and the order of the
// queries does not matter. Numbers where a coin decides therefore follow the rule (a fair coin),
// not Python's draws.

/** FNV-1a over the UTF-16 code units of `text`, as an unsigned 32-bit integer. */
function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Numbers in [0, 1) from pure-rand's Mersenne Twister seeded with `seed` (the generator Python's
 * `random` is, though not seeded the way Python seeds it). Mersenne, not xoroshiro: the first
 * draw of xoroshiro128plus from a small seed is close to 1.
 */
export function seededRandom(seed: number): () => number {
  const rng = mersenne(seed >>> 0);
  return () => uniformFloat64(rng);
}

/** A number in [0, 1) fixed by `seed` and `key`: the stand-in for one `random.random()`. */
export function keyedRandom(seed: number, key: readonly (string | number)[]): number {
  return seededRandom(fnv1a32(JSON.stringify([seed, ...key])))();
}

/** `random.random() < 0.5`, the reference's coin, for the draw named by `key`. */
export function coin(seed: number, key: readonly (string | number)[]): boolean {
  return keyedRandom(seed, key) < 0.5;
}
