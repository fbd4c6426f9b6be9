import { type MediaPart, partByteLength } from '@skein/spec';

/**
 * A media part as `gen_ai.input.messages` / `gen_ai.output.messages` show it: what it is, never
 * its bytes. An http(s) URL is the conventions' `uri` part (a backend may show the image); any
 * other part is a generic part of its own type with `mime_type` and `size` in bytes, in place of
 * the conventions' `blob`, whose `content` would be the base64 a trace must not carry.
 */
export type MediaPartJson =
  | {
      readonly type: 'uri';
      readonly modality: MediaPart['type'];
      readonly mime_type: string;
      readonly uri: string;
      readonly filename?: string;
    }
  | {
      readonly type: MediaPart['type'];
      readonly mime_type: string;
      readonly size?: number;
      readonly filename?: string;
    };

/** True for an http(s) URL: the only URL a trace records (a data: URL is the bytes themselves). */
function isWebUrl(url: string | undefined): url is string {
  return url !== undefined && /^https?:\/\//i.test(url);
}

/**
 * The part's length in bytes (decoded base64, `ref.size`), or undefined when unknown: an http(s)
 * URL, or a part malformed enough that no length can be told. Telemetry never throws on content
 * the engine let through, so a length that is not a whole count of bytes counts as unknown.
 */
export function mediaSize(part: MediaPart): number | undefined {
  let size: number | undefined;
  try {
    size = partByteLength(part);
  } catch {
    return undefined;
  }
  return size !== undefined && Number.isSafeInteger(size) && size >= 0 ? size : undefined;
}

export function mediaPartJson(part: MediaPart): MediaPartJson {
  const filename =
    part.type === 'file' && typeof part.filename === 'string' ? { filename: part.filename } : {};
  if (isWebUrl(part.url))
    return {
      type: 'uri',
      modality: part.type,
      mime_type: part.mediaType,
      uri: part.url,
      ...filename,
    };
  const size = mediaSize(part);
  return {
    type: part.type,
    mime_type: part.mediaType,
    ...(size === undefined ? {} : { size }),
    ...filename,
  };
}
