import type { Part } from '@a2a-js/sdk';
import { type ContentPart, contentProblem, type MediaPart } from '@skein/spec';

function mediaKind(mediaType: string): MediaPart['type'] {
  if (mediaType.startsWith('image/')) return 'image';
  if (mediaType.startsWith('audio/')) return 'audio';
  return 'file';
}

function mediaPart(part: Part, source: { url: string } | { data: Uint8Array }): MediaPart {
  const mediaType = part.mediaType || 'application/octet-stream';
  const type = mediaKind(mediaType);
  return type === 'file' && part.filename
    ? { type, mediaType, filename: part.filename, ...source }
    : { type, mediaType, ...source };
}

/** How a part Skein cannot keep reads to the model, so it still learns the part was there. */
function mediaNote(part: Part, where: string, problem: string): string {
  const name = part.filename ? ` "${part.filename}"` : '';
  return `[${part.mediaType || 'file'}${name}${where}: not attached, ${problem}]`;
}

/** One A2A part as Skein parts: text as text, data as its JSON, a file as a media part. */
function toSkeinPart(part: Part): ContentPart | undefined {
  const content = part.content;
  switch (content?.$case) {
    case 'text':
      return { type: 'text', text: content.value };
    case 'data':
      return { type: 'text', text: JSON.stringify(content.value ?? null) };
    case 'url':
    case 'raw': {
      const media =
        content.$case === 'url'
          ? mediaPart(part, { url: content.value })
          : mediaPart(part, { data: new Uint8Array(content.value) });
      // A part the engine would refuse (a gs:// URL, bytes that are not the declared PNG)
      // would turn the whole result into an error; the rest of the answer is still worth having.
      const problem = contentProblem([media], 'part');
      if (!problem) return media;
      const where = content.$case === 'url' ? ` at ${content.value}` : '';
      return { type: 'text', text: mediaNote(part, where, problem.problem) };
    }
    default:
      return undefined;
  }
}

/**
 * A2A parts as Skein content parts. Text from consecutive parts is kept apart by a newline:
 * Skein joins text parts with nothing between them.
 */
export function toSkeinParts(parts: readonly Part[]): ContentPart[] {
  const out: ContentPart[] = [];
  let textBefore = false;
  for (const part of parts) {
    const converted = toSkeinPart(part);
    if (!converted) continue;
    if (converted.type === 'text') {
      out.push(textBefore ? { type: 'text', text: `\n${converted.text}` } : converted);
      textBefore = true;
    } else out.push(converted);
  }
  return out;
}
