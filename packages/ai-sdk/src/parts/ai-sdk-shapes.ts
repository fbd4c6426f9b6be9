/**
 * The AI SDK shapes the part mappers produce, declared here rather than imported so this
 * package's types need neither `@ai-sdk/provider` nor `ai` (optional peers) installed. The tests
 * check each one against the installed package's own type.
 */

/** A user prompt part (`LanguageModelV3TextPart | LanguageModelV3FilePart`; `v2` alike). */
export type PromptUserPart =
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'file';
      readonly mediaType: string;
      readonly data: Uint8Array | URL;
      readonly filename?: string;
    };

/** An item of a `v3` tool result's `{ type: 'content' }` output. */
export type V3ToolContentItem =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image-data'; readonly data: string; readonly mediaType: string }
  | { readonly type: 'image-url'; readonly url: string }
  | {
      readonly type: 'file-data';
      readonly data: string;
      readonly mediaType: string;
      readonly filename?: string;
    }
  | { readonly type: 'file-url'; readonly url: string; readonly mediaType?: string };

/** An item of a `v2` tool result's `{ type: 'content' }` output: inline media only. */
export type V2ToolContentItem =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'media'; readonly data: string; readonly mediaType: string };

/** A tool result's output as the prompt carries it (the variants this package sends). */
export type ToolResultOutput<Item> =
  | { readonly type: 'text'; readonly value: string }
  | { readonly type: 'error-text'; readonly value: string }
  | { readonly type: 'content'; readonly value: Item[] };

/** A UI message's text part (`TextUIPart` of `ai`). */
export interface UITextPart {
  readonly type: 'text';
  readonly text: string;
}

/** A UI message's file part (`FileUIPart` of `ai`): `url` is a data: URL or an http(s) one. */
export interface UIFilePart {
  readonly type: 'file';
  readonly mediaType: string;
  readonly url: string;
  readonly filename?: string;
}

/** The UI message stream chunk that adds a file to the message being streamed. */
export interface UIFileChunk {
  readonly type: 'file';
  readonly url: string;
  readonly mediaType: string;
}
