import type { LLMMessage, ToolSpec } from '@skein/spec';
import { ToolNameCodec } from '@skein/spec';
import { UNNAMED_TOOL_PLACEHOLDER } from '../client/message-metadata.js';
import {
  toOpenAIMessage,
  toOpenAITool,
  toOpenAIUserMessage,
} from '../client/to-openai-messages.js';
import { type TranscriptMedia, transcriptContent } from './transcript-content.js';
import type { ExportedTranscript, MessageExtras, ToolCallExtras } from './transcript-types.js';

export interface ExportTranscriptOptions {
  /** Name form in `messages` and `tools` (default `encoded`: what the model saw). */
  readonly toolNames?: 'encoded' | 'original';
  /** The codec to encode with, e.g. `client.toolNames`, so names match what was sent. */
  readonly codec?: ToolNameCodec;
  /**
   * `none` (default): content in parts is refused. `user-images`: user messages' text and image
   * parts are written as OpenAI fine-tuning takes them (`text` and `image_url` parts, images as
   * http(s) URLs or base64 data: URLs); audio, files and images in other roles are refused.
   */
  readonly media?: TranscriptMedia;
  /**
   * With `user-images`: the bytes of the attachments (`ref` parts) by digest, read beforehand
   * (e.g. through `CheckpointStore.readAttachment`), so the export stays synchronous.
   */
  readonly attachments?: ReadonlyMap<string, Uint8Array>;
}

function allToolNames(messages: readonly LLMMessage[], tools: readonly ToolSpec[]): string[] {
  const names = new Set<string>();
  for (const tool of tools) names.add(tool.name);
  for (const message of messages) {
    for (const call of message.toolCalls ?? []) if (call.name !== '') names.add(call.name);
    if (message.role === 'tool' && message.name !== undefined && message.name !== '') {
      names.add(message.name);
    }
  }
  return [...names];
}

function extrasOf(
  message: LLMMessage,
  nameOf: (name: string) => string,
): MessageExtras | undefined {
  const calls: Record<string, ToolCallExtras> = {};
  let anyCall = false;
  (message.toolCalls ?? []).forEach((call, position) => {
    const extra: ToolCallExtras = {
      ...(call.error === undefined ? {} : { error: call.error }),
      ...(call.name === '' ? { unnamed: true as const } : {}),
    };
    if (Object.keys(extra).length !== 0) {
      calls[String(position)] = extra;
      anyCall = true;
    }
  });
  const extras: MessageExtras = {
    ...(message.metadata === undefined ? {} : { metadata: message.metadata }),
    ...(message.role === 'tool' && message.name !== undefined
      ? { name: nameOf(message.name) }
      : {}),
    ...(message.role !== 'tool' && message.toolCallId !== undefined
      ? { tool_call_id: message.toolCallId }
      : {}),
    ...(anyCall ? { tool_calls: calls } : {}),
    ...(message.toolCalls !== undefined && message.toolCalls.length === 0
      ? { empty_tool_calls: true as const }
      : {}),
  };
  return Object.keys(extras).length === 0 ? undefined : extras;
}

/**
 * The conversation and tools in OpenAI format with every tool name in one form, plus the mapping
 * back to the originals. `restoreTranscript` turns the result back into exactly these messages
 * and tools (an image comes back as inline base64 however it was held). A call that arrived
 * without a name is written as `skein_unnamed_tool`.
 */
export function exportTranscript(
  messages: readonly LLMMessage[],
  tools: readonly ToolSpec[],
  options: ExportTranscriptOptions = {},
): ExportedTranscript {
  const codec = options.codec ?? new ToolNameCodec();
  const names = allToolNames(messages, tools);
  const encoded = new Map<string, string>();
  const encodings = codec.encodeMany(names);
  for (let i = 0; i < names.length; i++) encoded.set(names[i]!, encodings[i]!);
  const form = options.toolNames ?? 'encoded';
  const nameOf = (name: string): string =>
    name === '' ? UNNAMED_TOOL_PLACEHOLDER : form === 'encoded' ? encoded.get(name)! : name;
  // Null prototype: a tool may be named "__proto__", which a plain object would not keep as a key.
  const mapping: Record<string, string> = Object.create(null);
  for (const [original, name] of encoded) mapping[name] = original;
  const extras: Record<string, MessageExtras> = {};
  let anyExtras = false;
  messages.forEach((message, index) => {
    const extra = extrasOf(message, nameOf);
    if (extra !== undefined) {
      extras[String(index)] = extra;
      anyExtras = true;
    }
  });
  const media = {
    media: options.media ?? 'none',
    ...(options.attachments === undefined ? {} : { attachments: options.attachments }),
  };
  return {
    messages: messages.map((message, index) => {
      const content = transcriptContent(message, index, media);
      return typeof content === 'string'
        ? toOpenAIMessage(message, content, nameOf)
        : toOpenAIUserMessage(message, content);
    }),
    tools: tools.map((tool) => toOpenAITool(tool, nameOf)),
    tool_name_mapping: Object.fromEntries(
      Object.entries(mapping).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    ),
    ...(anyExtras ? { skein_extras: extras } : {}),
  };
}
