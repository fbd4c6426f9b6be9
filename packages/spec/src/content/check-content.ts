import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { idProblem } from '../thread-id.js';
import { base64ByteLength, base64Problem, decodeChecked } from './base64.js';
import { CONTENT_PART_TYPES, type MessageContent } from './content-part.js';
import { isDataUrl, parseDataUrl } from './data-url.js';
import { isBytes } from './is-bytes.js';
import { checkedMediaType, hasSignature, SNIFF_BYTES, sniffMediaType } from './media-signature.js';
import { type ParsedMediaType, parseMediaType } from './media-type.js';

/** The largest attachment `checkContent` takes by default: 20 MiB of bytes (not of base64). */
export const DEFAULT_MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024;

export interface CheckContentOptions {
  /**
   * The most bytes one attachment may hold (decoded, for base64): default
   * `DEFAULT_MAX_ATTACHMENT_BYTES` (20 MiB). A part by `url` is not measured: its bytes are
   * not Skein's to fetch.
   */
  readonly maxAttachmentBytes?: number;
}

/**
 * What kind of rule a content broke, for callers that branch on it (`details.kind`):
 * - `content`: neither a string nor an array of parts; `part`: a part that is not an object, a
 *   hole, or a field it cannot have (or a missing one);
 * - `part-type`: an unknown part `type`;
 * - `media-type`: a malformed `mediaType`, or one the part type cannot carry (an image part
 *   declaring `audio/wav`), or `type/*` on inline data;
 * - `signature`: bytes that do not match the declared type (PNG, JPEG, GIF, WebP, PDF);
 * - `size`: an attachment over `maxAttachmentBytes`;
 * - `source`: not exactly one of `data`, `url`, `ref`;
 * - `url`: not a URL, or a scheme other than `http:` / `https:` (a base64 `data:` URL is inline);
 * - `base64`: text that is not strict standard base64;
 * - `ref`: a malformed attachment reference;
 * - `filename`: a file name that is empty, too long or holds control characters.
 */
export type ContentProblemKind =
  | 'content'
  | 'part'
  | 'part-type'
  | 'media-type'
  | 'signature'
  | 'size'
  | 'source'
  | 'url'
  | 'base64'
  | 'ref'
  | 'filename';

/** Why a value cannot be a message's content, and where. */
export interface ContentProblem {
  /** The part at fault (`messages[2].content[1]`), or the content itself. */
  readonly path: string;
  /** The part's index in the list, when a part is at fault. */
  readonly index?: number;
  /** The part's `type`, when it has a known one. */
  readonly partType?: string;
  /** The field of the part at fault (`mediaType`, `data`, `url`, `ref.size`, …). */
  readonly field?: string;
  readonly kind: ContentProblemKind;
  readonly problem: string;
}

/** The longest `filename` a file part may have (what most file systems take). */
export const MAX_FILENAME_LENGTH = 255;

const DIGEST = /^sha256:[0-9a-f]{64}$/;
const FIELDS: Readonly<Record<string, ReadonlySet<string>>> = {
  text: new Set(['type', 'text']),
  image: new Set(['type', 'mediaType', 'data', 'url', 'ref']),
  audio: new Set(['type', 'mediaType', 'data', 'url', 'ref']),
  file: new Set(['type', 'mediaType', 'filename', 'data', 'url', 'ref']),
};
const REF_FIELDS = new Set(['digest', 'size', 'width', 'height']);
// What people write from habit: MCP's and the web's names for the AI SDK's.
const HINTS: Readonly<Record<string, string>> = {
  mimeType: 'mediaType',
  mime_type: 'mediaType',
  media_type: 'mediaType',
  image: 'data',
  image_url: 'url',
  file_data: 'data',
  name: 'filename',
};

type Found = Omit<ContentProblem, 'path' | 'index' | 'partType'>;

function found(kind: ContentProblemKind, problem: string, field?: string): Found {
  return field === undefined ? { kind, problem } : { kind, problem, field };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 2)} MiB`;
}

function tooLarge(size: number, max: number, field: string): Found | undefined {
  return size > max
    ? found(
        'size',
        `the attachment holds ${size} bytes, over the limit of ${max} (${mib(max)}; maxAttachmentBytes)`,
        field,
      )
    : undefined;
}

/** Checks inline bytes against the declared type, when that type has a signature. */
function signatureProblem(head: Uint8Array, declared: ParsedMediaType, field: string) {
  const checked = checkedMediaType(declared.essence);
  if (checked === undefined || hasSignature(head, checked)) return undefined;
  const seen = sniffMediaType(head);
  return found(
    'signature',
    `mediaType says ${declared.essence} but the bytes do not start like one (${seen ? `they look like ${seen}` : head.length === 0 ? 'there are no bytes' : 'no known signature'})`,
    field,
  );
}

function base64DataProblem(
  text: string,
  declared: ParsedMediaType,
  max: number,
  field: string,
): Found | undefined {
  const size = tooLarge(base64ByteLength(text), max, field);
  if (size) return size;
  const problem = base64Problem(text);
  if (problem !== undefined) return found('base64', problem, field);
  return signatureProblem(decodeChecked(text, SNIFF_BYTES), declared, field);
}

function urlProblem(url: unknown, declared: ParsedMediaType, max: number): Found | undefined {
  if (typeof url !== 'string')
    return found('url', `url must be a string (an http(s) address), not ${kind(url)}`, 'url');
  if (isDataUrl(url)) {
    const parsed = parseDataUrl(url);
    if ('problem' in parsed) return found('url', parsed.problem, 'url');
    if (parsed.mediaType !== '') {
      const named = parseMediaType(parsed.mediaType);
      if (named?.essence !== declared.essence)
        return found(
          'media-type',
          `the data: URL names ${JSON.stringify(parsed.mediaType)} but mediaType is ${declared.essence}`,
          'url',
        );
    }
    return base64DataProblem(parsed.base64, declared, max, 'url');
  }
  let scheme: string;
  try {
    scheme = new URL(url).protocol;
  } catch {
    return found('url', `url ${JSON.stringify(url.slice(0, 100))} is not an absolute URL`, 'url');
  }
  if (scheme !== 'http:' && scheme !== 'https:')
    return found(
      'url',
      `url scheme ${JSON.stringify(scheme)} is not allowed: only http: and https: (or inline data, or a base64 data: URL)`,
      'url',
    );
  return undefined;
}

function positiveInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function refProblem(ref: unknown, max: number): Found | undefined {
  if (!isObject(ref))
    return found('ref', `ref must be an object { digest, size }, not ${kind(ref)}`, 'ref');
  for (const key of Object.keys(ref))
    if (!REF_FIELDS.has(key)) return found('ref', `ref has no field "${key}"`, `ref.${key}`);
  if (typeof ref.digest !== 'string' || !DIGEST.test(ref.digest))
    return found('ref', 'ref.digest must be "sha256:" and 64 lowercase hex digits', 'ref.digest');
  if (typeof ref.size !== 'number' || !Number.isSafeInteger(ref.size) || ref.size < 0)
    return found('ref', 'ref.size must be a whole number of bytes, 0 or more', 'ref.size');
  for (const side of ['width', 'height'] as const)
    if (ref[side] !== undefined && !positiveInteger(ref[side]))
      return found('ref', `ref.${side} must be a whole number of pixels, 1 or more`, `ref.${side}`);
  return tooLarge(ref.size, max, 'ref.size');
}

function an(type: string): string {
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value;
}

function mediaTypeProblem(part: Record<string, unknown>, type: string): Found | ParsedMediaType {
  const value = part.mediaType;
  if (typeof value !== 'string')
    return found(
      'media-type',
      value === undefined
        ? `${an(type)} part needs a mediaType (e.g. ${type === 'image' ? 'image/png' : type === 'audio' ? 'audio/wav' : 'application/pdf'})`
        : `mediaType must be a string, not ${kind(value)}`,
      'mediaType',
    );
  const parsed = parseMediaType(value);
  if (parsed === undefined)
    return found(
      'media-type',
      `mediaType ${JSON.stringify(value.slice(0, 100))} is not a media type (type/subtype)`,
      'mediaType',
    );
  if ((type === 'image' || type === 'audio') && parsed.type !== type)
    return found(
      'media-type',
      `${an(type)} part's mediaType must be ${type}/…, not ${parsed.essence} (use a file part for other types)`,
      'mediaType',
    );
  return parsed;
}

function mediaPartProblem(part: Record<string, unknown>, type: string, max: number) {
  const declared = mediaTypeProblem(part, type);
  if ('problem' in declared) return declared;
  if (type === 'file' && part.filename !== undefined) {
    const problem = idProblem(part.filename, 'filename', MAX_FILENAME_LENGTH);
    if (problem !== undefined) return found('filename', problem, 'filename');
  }
  const sources = (['data', 'url', 'ref'] as const).filter((s) => part[s] !== undefined);
  if (sources.length !== 1)
    return found(
      'source',
      sources.length === 0
        ? `${an(type)} part needs one of data (bytes or base64), url or ref`
        : `${an(type)} part takes exactly one of data, url and ref, not ${sources.join(' and ')}`,
    );
  const source = sources[0]!;
  const remote = source === 'url' && typeof part.url === 'string' && !isDataUrl(part.url);
  if (declared.wildcard && !remote)
    return found(
      'media-type',
      `mediaType ${declared.essence} is allowed for an http(s) url only; inline data and refs need their exact type`,
      'mediaType',
    );
  if (source === 'url') return urlProblem(part.url, declared, max);
  if (source === 'ref') return refProblem(part.ref, max);
  const data = part.data;
  if (isBytes(data))
    return (
      tooLarge(data.length, max, 'data') ??
      signatureProblem(data.subarray(0, SNIFF_BYTES), declared, 'data')
    );
  if (typeof data === 'string') return base64DataProblem(data, declared, max, 'data');
  return found(
    'part',
    `data must be a Uint8Array or base64 text, not ${kind(data)}${data instanceof ArrayBuffer ? ' (wrap it: new Uint8Array(buffer))' : ''}`,
    'data',
  );
}

function partProblem(part: unknown, max: number): (Found & { partType?: string }) | undefined {
  if (!isObject(part))
    return found('part', `a part must be an object with a type, not ${kind(part)}`);
  const type = part.type;
  if (typeof type !== 'string' || !Object.hasOwn(FIELDS, type))
    return found(
      'part-type',
      `unknown part type ${typeof type === 'string' ? JSON.stringify(type.slice(0, 100)) : kind(type)}; a part is one of ${CONTENT_PART_TYPES.join(', ')}`,
      'type',
    );
  const fields = FIELDS[type]!;
  let problem: Found | undefined;
  for (const key of Object.keys(part))
    if (!fields.has(key) && part[key] !== undefined) {
      const hint = HINTS[key] && fields.has(HINTS[key]) ? ` (did you mean ${HINTS[key]}?)` : '';
      problem = found('part', `${an(type)} part has no field "${key}"${hint}`, key);
      break;
    }
  if (problem === undefined)
    problem =
      type !== 'text'
        ? mediaPartProblem(part, type, max)
        : typeof part.text === 'string'
          ? undefined
          : found('part', `a text part's text must be a string, not ${kind(part.text)}`, 'text');
  return problem && { ...problem, partType: type };
}

function checkLimit(options: CheckContentOptions): number {
  const max = options.maxAttachmentBytes ?? DEFAULT_MAX_ATTACHMENT_BYTES;
  if (max !== Number.POSITIVE_INFINITY && !(Number.isSafeInteger(max) && max >= 0))
    throw new InvalidArgumentError(
      'options.maxAttachmentBytes',
      `maxAttachmentBytes must be a whole number of bytes, 0 or more (or Infinity), not ${String(max)}`,
    );
  return max;
}

/**
 * Why `value` cannot be a message's content, or undefined when it can: a string (any string), or
 * an array of parts each of which follows the rules in the README. `where` names the content in
 * the problem's `path` (`messages[2].content`); the first problem found is returned.
 */
export function contentProblem(
  value: unknown,
  where = 'content',
  options: CheckContentOptions = {},
): ContentProblem | undefined {
  const max = checkLimit(options);
  if (typeof value === 'string') return undefined;
  if (!Array.isArray(value))
    return {
      path: where,
      kind: 'content',
      problem: `content must be a string or an array of parts, not ${kind(value)}`,
    };
  for (let index = 0; index < value.length; index++) {
    const path = `${where}[${index}]`;
    if (!(index in value))
      return { path, index, kind: 'part', problem: 'a hole in the array of parts' };
    const problem = partProblem(value[index], max);
    if (problem !== undefined) return { path, index, ...problem };
  }
  return undefined;
}

/**
 * Returns `value` when it can be a message's content (see `contentProblem`), else throws
 * `InvalidArgumentError` (`INVALID_ARGUMENT`, 400 over HTTP) whose `argument` is the part at
 * fault (`messages[2].content[1]`) and whose `details` hold the `ContentProblem`.
 */
export function checkContent(
  value: unknown,
  where = 'content',
  options: CheckContentOptions = {},
): MessageContent {
  const problem = contentProblem(value, where, options);
  if (problem === undefined) return value as MessageContent;
  const { path, ...details } = problem;
  const what = problem.partType === undefined ? '' : ` (${problem.partType} part)`;
  throw new InvalidArgumentError(path, `${path}${what}: ${problem.problem}`, details);
}
