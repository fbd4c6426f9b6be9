import { contentText, encodeBase64, type MessageContent } from '@skein/spec';
import { AiSdkPartError } from '../errors/ai-sdk-part-error.js';
import type { ToolResultOutput, V2ToolContentItem } from './ai-sdk-shapes.js';
import { hasMedia } from './has-media.js';
import { resolveSource } from './media-source.js';
import type { ToolResultOutputOptions } from './to-v3-tool-result-output.js';

/**
 * A tool message's content as a `v2` (ai 5) tool result output: text, and `media` items of
 * base64 bytes, the only media a `v2` tool result has. A part by http(s) url cannot go (Skein
 * does not fetch it): `PART_UNSUPPORTED`, naming the part.
 */
export async function toV2ToolResultOutput(
  content: MessageContent,
  at: string,
  options: ToolResultOutputOptions = {},
): Promise<ToolResultOutput<V2ToolContentItem>> {
  if (options.isError) return { type: 'error-text', value: contentText(content) };
  if (typeof content === 'string' || !hasMedia(content))
    return { type: 'text', value: contentText(content) };
  const value = await Promise.all(
    content.map(async (part, index): Promise<V2ToolContentItem> => {
      if (part.type === 'text') return { type: 'text', text: part.text };
      const where = `${at}[${index}]`;
      const source = await resolveSource(part, where, options);
      if (source.kind === 'url')
        throw new AiSdkPartError(
          'PART_UNSUPPORTED',
          `${where} (${part.type} part): a v2 model's tool result takes inline media only, not the url ${source.url.href}; give the bytes, or use a v3 model`,
          { part: where, partType: part.type },
        );
      return { type: 'media', data: encodeBase64(source.bytes), mediaType: part.mediaType };
    }),
  );
  return { type: 'content', value };
}
