// Name normalisation of ToolBench (toolbench/utils.py L37-70; FORMAT.md §7.1).

// Everything but ASCII letters, digits, `_`, `^` (a quirk of how the reference writes its
// character class) and CJK ideographs U+4E00-U+9FA5 becomes `_`, one code point at a time.
const OUTSIDE_CLASS = /[^\u4e00-\u9fa5a-zA-Z0-9_^]/gu;
const RESERVED = new Set(['from', 'class', 'return', 'false', 'true', 'id', 'and']);

/**
 * `standardize(s)` of the reference: foreign characters to `_`, runs of `_` collapsed,
 * lower-cased, `_` stripped at both ends, `get_` prefixed when the result starts with a digit.
 */
export function standardizeToolBenchName(name: string): string {
  let out = name.replace(OUTSIDE_CLASS, '_').replace(/_{2,}/g, '_').toLowerCase();
  let start = 0;
  let end = out.length;
  while (start < end && out[start] === '_') start++;
  while (end > start && out[end - 1] === '_') end--;
  out = out.slice(start, end);
  if (out.length > 0 && out.charCodeAt(0) >= 0x30 && out.charCodeAt(0) <= 0x39) out = `get_${out}`;
  return out;
}

/** `change_name(s)`: the reserved words `from class return false true id and` become `is_<word>`. */
export function renameReservedWord(name: string): string {
  return RESERVED.has(name) ? `is_${name}` : name;
}

/** A category as a directory name: spaces, `,` and `/` to `_`, then `__` to `_` (one pass). */
export function standardizeToolBenchCategory(category: string): string {
  return category.replace(/[ ,/]/g, '_').replaceAll('__', '_');
}
