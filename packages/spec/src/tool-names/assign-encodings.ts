import { ToolNameError } from '../errors/tool-name-error.js';
import {
  BASE_HASH_LENGTH,
  type CompiledRule,
  encodeWithHashLength,
  fitsRule,
  sanitizeName,
} from './tool-name-rule.js';

interface Candidate {
  readonly original: string;
  readonly sanitized: string;
  readonly hash: string;
}

/**
 * Candidate encodings of every name at hash lengths `BASE_HASH_LENGTH..level`, by encoded string,
 * grown one level at a time only when some name needs a longer hash.
 */
class CandidateIndex {
  readonly #candidates: readonly Candidate[];
  readonly #rule: CompiledRule;
  readonly #byEncoded = new Map<string, { original: string; length: number }[]>();
  #level = BASE_HASH_LENGTH - 1;

  constructor(candidates: readonly Candidate[], rule: CompiledRule) {
    this.#candidates = candidates;
    this.#rule = rule;
  }

  /** Another name whose encoding at some hash length `<= length` is `encoded`, if any. */
  clash(encoded: string, original: string, length: number): string | undefined {
    while (this.#level < length) this.#grow();
    for (const entry of this.#byEncoded.get(encoded) ?? []) {
      if (entry.original !== original && entry.length <= length) return entry.original;
    }
    return undefined;
  }

  #grow(): void {
    this.#level++;
    for (const c of this.#candidates) {
      if (c.hash.length < this.#level) continue;
      const encoded = encodeWithHashLength(c.sanitized, c.hash, this.#level, this.#rule);
      const list = this.#byEncoded.get(encoded);
      const entry = { original: c.original, length: this.#level };
      if (list === undefined) this.#byEncoded.set(encoded, [entry]);
      else list.push(entry);
    }
  }
}

/**
 * The encoded name of every original, decided from the set alone (never from the order names were
 * added): names that fit stay as they are, pinned names keep their pinned form, and every other
 * name takes the shortest hash length `k >= 5` at which its encoding is neither taken by a fixed
 * name nor equal to any other name's encoding at a length `<= k`. Two names that clash at length
 * 5 therefore both move to a longer hash, and the result is injective: if `enc_a(x) = enc_b(y)`
 * with `a <= b`, then `y` would have seen `enc_a(x)` when it checked length `b`.
 *
 * `assigned` (encoded -> original) holds every encoding handed out before. Each stays its
 * original's for good: no other name may take it, and a name that fits but equals one of them is
 * encoded like a name that does not fit, so a decode never switches to a different tool.
 */
export function assignEncodings(
  originals: Iterable<string>,
  pinned: ReadonlyMap<string, string>,
  assigned: ReadonlyMap<string, string>,
  rule: CompiledRule,
  hash: (original: string) => string,
): Map<string, string> {
  const result = new Map<string, string>();
  const taken = new Map<string, string>(assigned);
  for (const [original, encoded] of pinned) {
    result.set(original, encoded);
    taken.set(encoded, original);
  }
  const candidates: Candidate[] = [];
  for (const original of originals) {
    if (pinned.has(original)) continue;
    const holder = taken.get(original);
    if (fitsRule(original, rule) && (holder === undefined || holder === original)) {
      result.set(original, original);
      taken.set(original, original);
    } else {
      candidates.push({ original, sanitized: sanitizeName(original, rule), hash: hash(original) });
    }
  }
  const index = new CandidateIndex(candidates, rule);
  for (const c of candidates) {
    const maxLength = Math.min(c.hash.length, rule.limit - 1);
    let chosen: string | undefined;
    let rival: string | undefined;
    for (let length = BASE_HASH_LENGTH; length <= maxLength; length++) {
      const encoded = encodeWithHashLength(c.sanitized, c.hash, length, rule);
      const holder = taken.get(encoded);
      rival =
        holder !== undefined && holder !== c.original
          ? holder
          : index.clash(encoded, c.original, length);
      if (rival === undefined) {
        chosen = encoded;
        break;
      }
    }
    if (chosen === undefined) {
      throw ToolNameError.collision(
        rival === undefined ? [c.original] : [c.original, rival],
        encodeWithHashLength(c.sanitized, c.hash, maxLength, rule),
        `their hashes agree on all ${maxLength} characters that fit`,
      );
    }
    if (!fitsRule(chosen, rule)) {
      throw ToolNameError.invalidName(
        c.original,
        `its encoding "${chosen}" does not match the tool name pattern ${rule.pattern}; the pattern needs a rule this scheme cannot meet`,
      );
    }
    result.set(c.original, chosen);
  }
  return result;
}
