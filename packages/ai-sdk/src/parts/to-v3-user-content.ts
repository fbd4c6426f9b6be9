import type { MessageContent } from '@skein/spec';
import type { PromptUserPart } from './ai-sdk-shapes.js';
import { resolveSource } from './media-source.js';
import type { ResolveRefOptions } from './resolve-ref.js';

/**
 * A user message's content as the prompt's user parts: text as a text part; an image, audio clip
 * or file as a `file` part with its `mediaType` (and `filename`), its bytes as a `Uint8Array` or
 * its http(s) address as a `URL`, which the provider either fetches or sends on (its
 * `supportedUrls`). `v2` models take the same parts. `at` names the content in errors
 * (`messages[2].content`, so a part is `messages[2].content[1]`); a `ref` needs `resolveRef`.
 */
export async function toV3UserContent(
  content: MessageContent,
  at: string,
  options: ResolveRefOptions = {},
): Promise<PromptUserPart[]> {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Promise.all(
    content.map(async (part, index): Promise<PromptUserPart> => {
      if (part.type === 'text') return { type: 'text', text: part.text };
      const where = `${at}[${index}]`;
      const source = await resolveSource(part, where, options);
      return {
        type: 'file',
        mediaType: part.mediaType,
        data: source.kind === 'bytes' ? source.bytes : source.url,
        ...(part.type === 'file' && part.filename !== undefined ? { filename: part.filename } : {}),
      };
    }),
  );
}
