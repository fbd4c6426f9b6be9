import { contentText, encodeBase64, type MessageContent } from '@skein/spec';
import type { ToolResultOutput, V3ToolContentItem } from './ai-sdk-shapes.js';
import { hasMedia } from './has-media.js';
import { resolveSource } from './media-source.js';
import type { ResolveRefOptions } from './resolve-ref.js';

export interface ToolResultOutputOptions extends ResolveRefOptions {
  /** The engine marked the tool message an error: `error-text`, which has no media form. */
  readonly isError?: boolean;
}

/**
 * A tool message's content as a `v3` tool result output. Text, and parts that are all text, stay
 * the `text` output it has always been (a provider that cannot send content outputs, such as
 * `@ai-sdk/openai-compatible`, would send their JSON instead); parts with media become a `content` output of `text`, `image-data` / `file-data` (base64)
 * and `image-url` / `file-url` items (audio goes as a file: the output has no audio item).
 *
 * Who reads what, as of `@ai-sdk/provider` 3 and `ai` 6: these names are the only ones a `v3`
 * model is promised. The `v2` `media` item (see `toV2ToolResultOutput`) is still accepted by
 * `ai`'s own message schema, which rewrites it to `image-data` / `file-data` before a model sees
 * it, but Skein calls `doStream` itself, so no rewrite happens and a `v3` provider gets exactly
 * what this returns. Providers differ in what they do with it: `@ai-sdk/openai-compatible` 2
 * (chat completions, whose tool messages are text) sends the whole `content` value as JSON text,
 * base64 and all; the AI SDK documents multi-modal tool results for Anthropic and OpenAI only.
 */
export async function toV3ToolResultOutput(
  content: MessageContent,
  at: string,
  options: ToolResultOutputOptions = {},
): Promise<ToolResultOutput<V3ToolContentItem>> {
  if (options.isError) return { type: 'error-text', value: contentText(content) };
  if (typeof content === 'string' || !hasMedia(content))
    return { type: 'text', value: contentText(content) };
  const value = await Promise.all(
    content.map(async (part, index): Promise<V3ToolContentItem> => {
      if (part.type === 'text') return { type: 'text', text: part.text };
      const source = await resolveSource(part, `${at}[${index}]`, options);
      const image = part.type === 'image';
      if (source.kind === 'url')
        return image
          ? { type: 'image-url', url: source.url.href }
          : { type: 'file-url', url: source.url.href, mediaType: part.mediaType };
      const data = encodeBase64(source.bytes);
      if (image) return { type: 'image-data', data, mediaType: part.mediaType };
      return {
        type: 'file-data',
        data,
        mediaType: part.mediaType,
        ...(part.type === 'file' && part.filename !== undefined ? { filename: part.filename } : {}),
      };
    }),
  );
  return { type: 'content', value };
}
