import { InvalidToolNameError } from '../errors/invalid-tool-name-error.js';
import { InvalidToolNameMappingError } from '../errors/invalid-tool-name-mapping-error.js';
import { UnknownToolNameError } from '../errors/unknown-tool-name-error.js';
import { assignEncodings } from './assign-encodings.js';
import {
  type CompiledRule,
  compileRule,
  fitsRule,
  sha256Hex,
  type ToolNameRule,
} from './tool-name-rule.js';

export interface ToolNameCodecOptions extends Partial<ToolNameRule> {
  /**
   * Hash of an original name, as characters the rule accepts (default: SHA-256 in hex). Only the
   * first 5 characters are used unless two names clash. Injectable so tests can force collisions.
   */
  readonly hash?: (original: string) => string;
}

/** Encoded name -> original name. */
export type ToolNameMapping = Readonly<Record<string, string>>;

function checkOriginal(name: unknown): string {
  if (typeof name !== 'string' || name.length === 0) {
    throw new InvalidToolNameError(name, 'a tool name must be a non-empty string');
  }
  return name;
}

/**
 * Two-way map between tool names and names a provider accepts. Names that fit the rule are kept;
 * others become `<readable prefix>_<5 hex of a hash>`, with longer hashes where two names would
 * clash. Which name gets which encoding depends only on the set of names registered, never on the
 * order. Registering a name can lengthen the hash of a name it clashes with; the older encoding
 * still decodes (it was only ever given out for that name).
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
    this.#hash = options.hash ?? sha256Hex;
  }

  /**
   * A codec that decodes (and encodes) exactly as `mapping` says, e.g. an exported transcript's
   * `tool_name_mapping`. Names added later are encoded around the pinned ones.
   */
  static fromMapping(mapping: ToolNameMapping, options: ToolNameCodecOptions = {}): ToolNameCodec {
    if (typeof mapping !== 'object' || mapping === null || Array.isArray(mapping)) {
      throw new InvalidToolNameMappingError(
        '',
        'the mapping must be an object of encoded -> original',
      );
    }
    const rule = compileRule(options);
    const pinned = new Map<string, string>();
    for (const [encoded, original] of Object.entries(mapping)) {
      if (typeof original !== 'string' || original.length === 0) {
        throw new InvalidToolNameMappingError(
          encoded,
          'the original name must be a non-empty string',
        );
      }
      if (!fitsRule(encoded, rule)) {
        throw new InvalidToolNameMappingError(
          encoded,
          `the encoded name does not fit ${rule.pattern}`,
        );
      }
      if (fitsRule(original, rule) && original !== encoded) {
        throw new InvalidToolNameMappingError(
          encoded,
          `"${original}" fits the rule, so its encoding must be itself`,
        );
      }
      const earlier = pinned.get(original);
      if (earlier !== undefined) {
        throw new InvalidToolNameMappingError(
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

  /** The original name of an encoded one; `UnknownToolNameError` if this codec never produced it. */
  decode(encoded: string): string {
    const original = this.tryDecode(encoded);
    if (original === undefined) throw new UnknownToolNameError(encoded);
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
    const next = assignEncodings(originals, this.#pinned, this.#rule, this.#hash);
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
