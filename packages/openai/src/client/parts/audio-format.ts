import { mediaTypeEssence } from './media-type-essence.js';

/** The two formats `input_audio` takes, by the media types that name them. */
const FORMATS: Readonly<Record<string, 'wav' | 'mp3'>> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
};

export const AUDIO_MEDIA_TYPES: readonly string[] = Object.keys(FORMATS);

/** The `input_audio.format` for `mediaType`, or undefined when Chat Completions cannot take it. */
export function audioFormat(mediaType: string): 'wav' | 'mp3' | undefined {
  const essence = mediaTypeEssence(mediaType);
  return Object.hasOwn(FORMATS, essence) ? FORMATS[essence] : undefined;
}
