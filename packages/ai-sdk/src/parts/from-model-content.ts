import {
  type CheckContentOptions,
  type ContentPart,
  contentText,
  encodeBase64,
  type MediaPart,
  type MessageContent,
} from '@skein/spec';
import { checkMappedParts } from './check-mapped-parts.js';
import { hasMedia } from './has-media.js';
import { partTypeOf } from './part-type-of.js';

/** A file the model generated (`LanguageModelV3File`, and the stream's `file` part). */
export interface ModelFile {
  readonly type: 'file';
  readonly mediaType: string;
  readonly data: string | Uint8Array;
}

/**
 * A generated file as a Skein part: an image, audio or file part by its media type, its bytes as
 * base64 (JSON, as a checkpoint needs until the stores keep attachments by ref).
 */
export function fromModelFile(file: ModelFile): MediaPart {
  const data = typeof file.data === 'string' ? file.data : encodeBase64(file.data);
  return { type: partTypeOf(file.mediaType), mediaType: file.mediaType, data };
}

/**
 * The assistant content of a model's answer (`LanguageModelV3Content[]`): its text and generated
 * files in order, other content (reasoning, tool calls, sources) left to the code that reads
 * those. A plain string when there is no file, so a text answer stays what it was. The result is
 * checked (`checkContent`): a provider's file that is not what it says (bad base64, PNG declared
 * for JPEG bytes, over `maxAttachmentBytes`) is an `InvalidArgumentError` naming `at[i]`, the
 * item of the model's content.
 */
export function fromModelContent(
  content: readonly { readonly type: string }[],
  at = 'response.content',
  options: CheckContentOptions = {},
): MessageContent {
  const parts: ContentPart[] = [];
  const origin: number[] = [];
  content.forEach((item, index) => {
    if (item.type === 'text')
      parts.push({ type: 'text', text: (item as unknown as { readonly text: string }).text });
    else if (item.type === 'file') parts.push(fromModelFile(item as unknown as ModelFile));
    else return;
    origin.push(index);
  });
  if (!hasMedia(parts)) return contentText(parts);
  return checkMappedParts(parts, origin, at, options);
}
