import { createHash } from 'node:crypto';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';

/** What a provider accepts as a tool name. */
export interface ToolNameRule {
  /** Longest name accepted. */
  readonly limit: number;
  /** A name matching this (and no longer than `limit`) is sent unchanged; encoded names match it. */
  readonly pattern: RegExp;
  /** Matches one character the provider does not accept; each becomes `_` when encoding. */
  readonly invalidChar: RegExp;
}

/** OpenAI Chat Completions (and most compatible servers): `^[a-zA-Z0-9_-]{1,64}$`. */
export const OPENAI_TOOL_NAME_RULE: ToolNameRule = {
  limit: 64,
  pattern: /^[a-zA-Z0-9_-]{1,64}$/,
  invalidChar: /[^a-zA-Z0-9_-]/u,
};

/** Anthropic's current rule, for OpenAI-compatible gateways in front of Claude. */
export const ANTHROPIC_TOOL_NAME_RULE: ToolNameRule = {
  limit: 128,
  pattern: /^[a-zA-Z0-9_-]{1,128}$/,
  invalidChar: /[^a-zA-Z0-9_-]/u,
};

/** Hash length the scheme starts with: `_` plus five hex characters. */
export const BASE_HASH_LENGTH = 5;

/** The compiled form of a rule: regexes without shared `lastIndex` state. */
export interface CompiledRule {
  readonly limit: number;
  readonly pattern: RegExp;
  readonly invalidChars: RegExp;
}

/**
 * The original scheme's hash, `hashlib.md5(name.encode()).hexdigest()`: names shortened by the
 * original pipeline (and written into its datasets) come out the same. Not used for security.
 */
export function md5Hex(text: string): string {
  return createHash('md5').update(text, 'utf8').digest('hex');
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * Fills in and checks a (possibly partial) rule. A `limit` without a `pattern` means the default
 * character set with that limit.
 */
export function compileRule(rule: Partial<ToolNameRule>): CompiledRule {
  const limit = rule.limit ?? (rule.pattern === undefined ? OPENAI_TOOL_NAME_RULE.limit : 64);
  if (!Number.isInteger(limit) || limit < BASE_HASH_LENGTH + 1) {
    throw new InvalidArgumentError(
      'limit',
      `Tool name limit must be an integer of at least ${BASE_HASH_LENGTH + 1} (room for "_" and the hash); got ${String(limit)}`,
    );
  }
  const pattern = rule.pattern ?? new RegExp(`^[a-zA-Z0-9_-]{1,${limit}}$`);
  const invalidChar = rule.invalidChar ?? OPENAI_TOOL_NAME_RULE.invalidChar;
  if (!(pattern instanceof RegExp) || !(invalidChar instanceof RegExp)) {
    throw new InvalidArgumentError(
      'pattern',
      'pattern and invalidChar must be regular expressions',
    );
  }
  const flags = invalidChar.flags.replace(/[gy]/g, '');
  return {
    limit,
    pattern: new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, '')),
    invalidChars: new RegExp(
      invalidChar.source,
      `${flags}g${flags.includes('u') || flags.includes('v') ? '' : 'u'}`,
    ),
  };
}

/** True when `name` is sent as it is. */
export function fitsRule(name: string, rule: CompiledRule): boolean {
  return name.length <= rule.limit && rule.pattern.test(name);
}

/** Characters outside the rule become `_` (one per code point). */
export function sanitizeName(name: string, rule: CompiledRule): string {
  return name.replace(rule.invalidChars, '_');
}

/** The readable prefix cut to `limit - 1 - hashLength`, then `_` and `hashLength` hash characters. */
export function encodeWithHashLength(
  sanitized: string,
  hash: string,
  hashLength: number,
  rule: CompiledRule,
): string {
  return `${sanitized.slice(0, rule.limit - 1 - hashLength)}_${hash.slice(0, hashLength)}`;
}
