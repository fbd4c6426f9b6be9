import type { MediaPart } from '@skein/spec';

/**
 * The Skein part type for bytes of `mediaType`, where nothing else says: images and audio get
 * their own types (what the token rules and the OpenAI and MCP wires tell apart), the rest is a
 * file. The AI SDK puts all three in `file` parts, so this is how they come back.
 */
export function partTypeOf(mediaType: string): MediaPart['type'] {
  const family = mediaType.slice(0, mediaType.indexOf('/')).trim().toLowerCase();
  return family === 'image' ? 'image' : family === 'audio' ? 'audio' : 'file';
}
