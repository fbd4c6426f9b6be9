import type { ContentPart, MediaPart } from '@skein/spec';
import type { ChatCompletionContentPart } from 'openai/resources/chat/completions';
import { AUDIO_MEDIA_TYPES, audioFormat } from './audio-format.js';
import { inlineMedia, isRemotePart, type PartPlace } from './media-base64.js';
import { mediaTypeEssence } from './media-type-essence.js';
import { partError } from './part-error.js';
import type { PartSourceOptions } from './part-options.js';

// Chat Completions asks a file for a name; the AI SDK sends `part-<index>.pdf` when there is none.
const EXTENSIONS: Readonly<Record<string, string>> = {
  'application/pdf': '.pdf',
  'text/plain': '.txt',
  'text/csv': '.csv',
  'text/markdown': '.md',
  'application/json': '.json',
};

function dataUrl(mediaType: string, base64: string): string {
  return `data:${mediaTypeEssence(mediaType)};base64,${base64}`;
}

/** A file's name on the wire: its own, or one made from its place and type. */
function wireFilename(part: MediaPart & { type: 'file' }, index: number): string {
  const essence = mediaTypeEssence(part.mediaType);
  return (
    part.filename ?? `part-${index}${Object.hasOwn(EXTENSIONS, essence) ? EXTENSIONS[essence] : ''}`
  );
}

async function mediaToChatPart(
  part: MediaPart,
  place: PartPlace,
  options: PartSourceOptions,
): Promise<ChatCompletionContentPart> {
  // The provider fetches an image URL itself, so Skein's server never has to.
  if (part.type === 'image' && isRemotePart(part))
    return { type: 'image_url', image_url: { url: part.url! } };
  const media = await inlineMedia(part, place, options);
  switch (part.type) {
    case 'image':
      return { type: 'image_url', image_url: { url: dataUrl(media.mediaType, media.base64) } };
    case 'audio': {
      const format = audioFormat(media.mediaType);
      if (format === undefined)
        throw partError(
          place.path,
          place.index,
          part,
          'media-type',
          `Chat Completions takes audio as wav or mp3 only (${AUDIO_MEDIA_TYPES.join(', ')}), not ${mediaTypeEssence(media.mediaType)}`,
          'mediaType',
        );
      return { type: 'input_audio', input_audio: { data: media.base64, format } };
    }
    case 'file':
      return {
        type: 'file',
        file: {
          file_data: dataUrl(media.mediaType, media.base64),
          filename: wireFilename(part, place.index),
        },
      };
  }
}

/** One part of a user message in Chat Completions form. */
export function toChatPart(
  part: ContentPart,
  place: PartPlace,
  options: PartSourceOptions,
): Promise<ChatCompletionContentPart> {
  if (part.type === 'text') return Promise.resolve({ type: 'text', text: part.text });
  return mediaToChatPart(part, place, options);
}
