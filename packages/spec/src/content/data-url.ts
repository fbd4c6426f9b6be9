/** A `data:` URL taken apart: the media type it names ('' when none) and its base64 text. */
interface DataUrl {
  readonly mediaType: string;
  readonly base64: string;
}

export function isDataUrl(url: string): boolean {
  return /^data:/i.test(url);
}

/**
 * Splits a `data:` URL (RFC 2397) into its media type and base64 payload, or says why it cannot:
 * only base64 data URLs carry media (a percent-encoded one is text; put that in a text part).
 */
export function parseDataUrl(url: string): DataUrl | { readonly problem: string } {
  const comma = url.indexOf(',');
  if (comma < 0) return { problem: 'a data: URL needs a "," before its data' };
  const meta = url.slice(5, comma);
  if (!/;base64$/i.test(meta))
    return { problem: 'a data: URL must be base64 (data:<media type>;base64,<data>)' };
  return { mediaType: meta.slice(0, -';base64'.length), base64: url.slice(comma + 1) };
}
