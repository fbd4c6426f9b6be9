// Python strings index by code point, JavaScript strings by UTF-16 unit. The helpers below give
// Python's answers; they take a fast path when the text has no surrogate (then both agree).

const SURROGATE = /[\uD800-\uDFFF]/;

export function hasSurrogates(text: string): boolean {
  return SURROGATE.test(text);
}

/** `text[:n]` in Python: the first `n` code points. */
export function pyTake(text: string, n: number): string {
  if (!hasSurrogates(text)) return text.slice(0, n);
  return Array.from(text).slice(0, n).join('');
}

/** `text[-n:]` in Python: the last `n` code points. */
export function pyTakeLast(text: string, n: number): string {
  if (!hasSurrogates(text)) return text.length <= n ? text : text.slice(text.length - n);
  const points = Array.from(text);
  return points.length <= n ? text : points.slice(points.length - n).join('');
}

/** Python's `str.isspace()` for one code point (differs from JS: 0x1C-0x1F and 0x85 yes, 0xFEFF no). */
export function isPySpace(code: number): boolean {
  return (
    (code >= 0x09 && code <= 0x0d) ||
    (code >= 0x1c && code <= 0x20) ||
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** Python's `str.strip()` with no argument. */
export function pyStrip(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isPySpace(text.charCodeAt(start))) start++;
  while (end > start && isPySpace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

/**
 * `text[text.find(start) + len(start) : text.find(end)]` in Python (to the end of the text when
 * `end` is undefined), code points and all: a missing marker makes find() return -1, so the slice
 * starts at `len(start) - 1`, or stops one character before the end.
 */
export function pyFindSlice(text: string, start: string, end?: string): string {
  const points = hasSurrogates(text) ? Array.from(text) : undefined;
  const find = (marker: string): number => {
    const unit = text.indexOf(marker);
    if (unit < 0 || points === undefined) return unit;
    return Array.from(text.slice(0, unit)).length;
  };
  const length = points === undefined ? text.length : points.length;
  const clamp = (i: number): number => Math.min(Math.max(i < 0 ? i + length : i, 0), length);
  const from = clamp(find(start) + start.length);
  const to = end === undefined ? length : clamp(find(end));
  if (from >= to) return '';
  return points === undefined ? text.slice(from, to) : points.slice(from, to).join('');
}
