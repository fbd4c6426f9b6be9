// A media type as RFC 6838 names them (`type/subtype`, optional `; name=value` parameters), the
// subtype `*` allowed for parts whose bytes are fetched later (`image/*`, as the AI SDK allows).
const TOKEN = '[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}';
const PARAMETER = `\\s*;\\s*${TOKEN}=(?:${TOKEN}|"[^"\\\\\\u0000-\\u001f]*")`;
const MEDIA_TYPE = new RegExp(`^(${TOKEN})/(${TOKEN}|\\*)(?:${PARAMETER})*\\s*$`);

/** A media type taken apart: its essence (`type/subtype`, lowercase) and whether it is `type/*`. */
export interface ParsedMediaType {
  readonly essence: string;
  readonly type: string;
  readonly wildcard: boolean;
}

/** The media type `value` names, or undefined when it is not one. */
export function parseMediaType(value: string): ParsedMediaType | undefined {
  const match = MEDIA_TYPE.exec(value);
  if (!match) return undefined;
  const type = match[1]!.toLowerCase();
  const subtype = match[2]!.toLowerCase();
  return { essence: `${type}/${subtype}`, type, wildcard: subtype === '*' };
}
