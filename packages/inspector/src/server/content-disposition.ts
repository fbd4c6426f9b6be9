// RFC 6266 with RFC 8187 (was 5987) for names beyond ASCII: `filename` holds a plain-ASCII stand-in
// for old clients, `filename*` the exact name as percent-encoded UTF-8, which every current
// browser prefers.

// A lone surrogate cannot be encoded as UTF-8 (encodeURIComponent throws on one).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The ASCII stand-in: printable ASCII only, without `"` and `\`, which a quoted string would have to
 * escape and which browsers have read differently; everything else becomes `_`.
 */
function asciiName(name: string): string {
  return name.replace(/[^\x20-\x7e]|["\\]/g, '_');
}

/** RFC 8187 `value-chars`: UTF-8, percent-encoded except for `attr-char`s. */
function extendedValue(name: string): string {
  return `UTF-8''${encodeURIComponent(name.replace(LONE_SURROGATE, '\uFFFD')).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )}`;
}

/** `attachment; filename="…"; filename*=UTF-8''…` (or `inline; …`) for a file named `name`. */
export function contentDisposition(kind: 'attachment' | 'inline', name: string): string {
  return `${kind}; filename="${asciiName(name)}"; filename*=${extendedValue(name)}`;
}
