import { describeValue } from '../describe-value.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { ToolNameError } from '../errors/tool-name-error.js';
import { assignEncodings } from './assign-encodings.js';
import {
  type CompiledRule,
  compileRule,
  fitsRule,
  md5Hex,
  sha256Hex,
  type ToolNameRule,
} from './tool-name-rule.js';

/** A named hash (hex digest of the UTF-8 name), or a function giving characters the rule accepts. */
export type ToolNameHash = 'md5' | 'sha256' | ((original: string) => string);

export interface ToolNameCodecOptions extends Partial<ToolNameRule> {
  /**
   * Hash of an original name (default `'md5'`, as the original scheme's
   * `hashlib.md5(name.encode()).hexdigest()[:5]`). Only the first 5 characters are used unless
   * two names clash. A function can be passed, e.g. so tests can force collisions.
   */
  readonly hash?: ToolNameHash;
}

/** Encoded name -> original name. */
export type ToolNameMapping = Readonly<Record<string, string>>;

function resolveHash(hash: ToolNameHash | undefined): (original: string) => string {
  if (hash === undefined || hash === 'md5') return md5Hex;
  if (hash === 'sha256') return sha256Hex;
  if (typeof hash === 'function') return hash;
  throw new InvalidArgumentError(
    'hash',
    `hash must be 'md5', 'sha256' or a function, got ${describeValue(hash)}`,
  );
}

function checkOriginal(name: unknown): string {
  if (typeof name !== 'string' || name.length === 0) {
    throw ToolNameError.invalidName(name, 'a tool name must be a non-empty string');
  }
  return name;
}

/**
 * Two-way map between tool names and names a provider accepts. Names that fit the rule are kept;
 * others become `<readable prefix>_<5 hex of a hash>`, with longer hashes where two names would
 * clash. Names registered together get encodings that depend only on the set, never on the order.
 * An encoding once assigned always decodes to its original: registering a name can lengthen the
 * hash of a name it clashes with (the older encoding still decodes), and a later name equal to an
 * encoding already assigned to another name is itself encoded, like a name that does not fit.
 */
export class ToolNameCodec {
  readonly #rule: CompiledRule;
  readonly #hash: (original: string) => string;
  #pinned: ReadonlyMap<string, string> = new Map();
  #originals = new Set<string>();
  #current = new Map<string, string>();
  #reverse = new Map<string, string>();
  readonly #superseded = new Map<string, string>();

  constructor(options: ToolNameCodecOptions = {}) {
    this.#rule = compileRule(options);
    this.#hash = resolveHash(options.hash);
  }

  /**
   * A codec that decodes (and encodes) exactly as `mapping` says, e.g. an exported transcript's
   * `tool_name_mapping`. Names added later are encoded around the pinned ones.
   */
  static fromMapping(mapping: ToolNameMapping, options: ToolNameCodecOptions = {}): ToolNameCodec {
    if (typeof mapping !== 'object' || mapping === null || Array.isArray(mapping)) {
      throw ToolNameError.invalidMapping(
        '',
        'the mapping must be an object of encoded -> original',
      );
    }
    const rule = compileRule(options);
    const pinned = new Map<string, string>();
    for (const [encoded, original] of Object.entries(mapping)) {
      if (typeof original !== 'string' || original.length === 0) {
        throw ToolNameError.invalidMapping(encoded, 'the original name must be a non-empty string');
      }
      if (!fitsRule(encoded, rule)) {
        throw ToolNameError.invalidMapping(
          encoded,
          `the encoded name does not fit ${rule.pattern}`,
        );
      }
      // A fitting name is encoded only when its literal form is another name's encoding.
      const holder = Object.hasOwn(mapping, original) ? mapping[original] : undefined;
      if (fitsRule(original, rule) && original !== encoded && (holder ?? original) === original) {
        throw ToolNameError.invalidMapping(
          encoded,
          `"${original}" fits the rule and is no other name's encoding, so its encoding must be itself`,
        );
      }
      const earlier = pinned.get(original);
      if (earlier !== undefined) {
        throw ToolNameError.invalidMapping(
          encoded,
          `"${original}" is already mapped from "${earlier}"; one original has one encoding`,
        );
      }
      pinned.set(original, encoded);
    }
    const codec = new ToolNameCodec(options);
    codec.#pinned = pinned;
    codec.#commit(codec.#originals);
    return codec;
  }

  /** True when the provider takes `name` as it is. */
  fits(name: string): boolean {
    return fitsRule(name, this.#rule);
  }

  /** Registers `original` and returns the name to send. */
  encode(original: string): string {
    return this.encodeMany([original])[0]!;
  }

  /**
   * Registers all names first, then returns their encodings: use it for everything one request
   * sends, so a clash among them is resolved before any of them goes out.
   */
  encodeMany(originals: Iterable<string>): string[] {
    const names = [...originals].map(checkOriginal);
    const fresh = names.filter((name) => !this.#originals.has(name) && !this.#pinned.has(name));
    if (fresh.length !== 0) this.#commit(new Set([...this.#originals, ...fresh]));
    return names.map((name) => this.#current.get(name)!);
  }

  /** The original name of an encoded one; `ToolNameError` (`UNKNOWN_TOOL_NAME`) if this codec never produced it. */
  decode(encoded: string): string {
    const original = this.tryDecode(encoded);
    if (original === undefined) throw ToolNameError.unknown(encoded);
    return original;
  }

  /** Like `decode`, but `undefined` for a name this codec never produced. */
  tryDecode(encoded: string): string | undefined {
    return this.#reverse.get(encoded) ?? this.#superseded.get(encoded);
  }

  /** Every registered name's current encoding, as encoded -> original, sorted by encoded name. */
  mapping(): ToolNameMapping {
    const entries = [...this.#reverse].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries);
  }

  /** Assigns encodings for `originals`; on a collision error nothing changes. */
  #commit(originals: Set<string>): void {
    const assigned = new Map([...this.#superseded, ...this.#reverse]);
    const next = assignEncodings(originals, this.#pinned, assigned, this.#rule, this.#hash);
    const reverse = new Map<string, string>();
    for (const [original, encoded] of next) reverse.set(encoded, original);
    for (const [original, encoded] of this.#current) {
      if (next.get(original) !== encoded && !this.#superseded.has(encoded)) {
        this.#superseded.set(encoded, original);
      }
    }
    for (const encoded of reverse.keys()) this.#superseded.delete(encoded);
    this.#originals = originals;
    this.#current = next;
    this.#reverse = reverse;
  }
}
