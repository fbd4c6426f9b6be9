import { ConversationError } from '@skein/conversation';
import type { LLMMessage, ToolCall, ToolSpec } from '@skein/spec';
import { describeValue } from '@skein/spec';
import { renameInDescription } from '../client/to-openai-messages.js';
import { restoreUserParts } from './restore-user-parts.js';
import { transcriptNameForm } from './transcript-name-form.js';
import type { ExportedTranscript, MessageExtras } from './transcript-types.js';

/** What `restoreTranscript` gives back: the messages and tools as they were exported. */
export interface RestoredTranscript {
  readonly messages: LLMMessage[];
  readonly tools: ToolSpec[];
}

type Record_ = Record<string, unknown>;

function object(value: unknown, path: string): Record_ {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw ConversationError.invalidTranscript(path, 'must be an object');
  }
  return value as Record_;
}

function array(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw ConversationError.invalidTranscript(path, 'must be an array');
  return value;
}

function string(value: unknown, path: string): string {
  if (typeof value !== 'string')
    throw ConversationError.invalidTranscript(path, 'must be a string');
  return value;
}

function restoreCalls(
  raw: unknown,
  extras: MessageExtras | undefined,
  path: string,
  decode: (name: string) => string,
): ToolCall[] {
  return array(raw, path).map((item, position) => {
    const call = object(item, `${path}[${position}]`);
    const fn = object(call.function, `${path}[${position}].function`);
    const extra = extras?.tool_calls?.[String(position)];
    const name = string(fn.name, `${path}[${position}].function.name`);
    return {
      id: string(call.id, `${path}[${position}].id`),
      name: extra?.unnamed === true ? '' : decode(name),
      arguments: string(fn.arguments, `${path}[${position}].function.arguments`),
      ...(extra?.error === undefined ? {} : { error: extra.error }),
    };
  });
}

function restoreMessage(
  raw: unknown,
  extras: MessageExtras | undefined,
  path: string,
  decode: (name: string) => string,
  encodeOf: (original: string) => string,
): LLMMessage {
  const m = object(raw, path);
  const role = m.role;
  const common = {
    ...(extras?.tool_call_id === undefined ? {} : { toolCallId: extras.tool_call_id }),
    ...(extras?.metadata === undefined ? {} : { metadata: extras.metadata }),
  };
  const participant = m.name === undefined ? {} : { name: string(m.name, `${path}.name`) };
  switch (role) {
    case 'system': {
      // Undo the export's renaming inside the tool description (names the model could call).
      const shown = string(m.content, `${path}.content`);
      const base = { role, content: shown, ...participant, ...common } as LLMMessage;
      return { ...base, content: renameInDescription(base, shown, encodeOf, true) };
    }
    case 'user': {
      const content = Array.isArray(m.content)
        ? restoreUserParts(m.content, `${path}.content`)
        : string(m.content, `${path}.content`);
      return { role, content, ...participant, ...common };
    }
    case 'assistant': {
      const content = m.content === null ? '' : string(m.content, `${path}.content`);
      const toolCalls =
        m.tool_calls !== undefined
          ? restoreCalls(m.tool_calls, extras, `${path}.tool_calls`, decode)
          : extras?.empty_tool_calls === true
            ? []
            : undefined;
      return {
        role,
        content,
        ...(toolCalls === undefined ? {} : { toolCalls }),
        ...participant,
        ...common,
      };
    }
    case 'tool':
      return {
        role,
        content: string(m.content, `${path}.content`),
        toolCallId: string(m.tool_call_id, `${path}.tool_call_id`),
        ...(extras?.name === undefined ? {} : { name: decode(extras.name) }),
        ...(extras?.metadata === undefined ? {} : { metadata: extras.metadata }),
      };
    default:
      throw ConversationError.invalidTranscript(
        `${path}.role`,
        `unknown role ${describeValue(role)}`,
      );
  }
}

function restoreTool(raw: unknown, path: string, decode: (name: string) => string): ToolSpec {
  const tool = object(raw, path);
  const fn = object(tool.function, `${path}.function`);
  const strict = fn.strict;
  if (strict !== undefined && typeof strict !== 'boolean') {
    throw ConversationError.invalidTranscript(`${path}.function.strict`, 'must be a boolean');
  }
  return {
    name: decode(string(fn.name, `${path}.function.name`)),
    description: string(fn.description, `${path}.function.description`),
    parameters: { ...object(fn.parameters, `${path}.function.parameters`) },
    ...(strict === undefined ? {} : { strict }),
  };
}

/**
 * The messages and tools an `exportTranscript` result was made from, whichever name form it
 * uses (see `transcriptNameForm`): in the encoded form every name is decoded through
 * `tool_name_mapping`; in the original form names are kept as they are.
 */
export function restoreTranscript(transcript: ExportedTranscript): RestoredTranscript {
  const root = object(transcript, 'transcript');
  const mapping = object(root.tool_name_mapping ?? {}, 'tool_name_mapping');
  const extras = object(root.skein_extras ?? {}, 'skein_extras') as Record<string, MessageExtras>;
  const encoded = transcriptNameForm(root, mapping, extras) === 'encoded';
  const decode = (name: string): string => {
    const original = encoded && Object.hasOwn(mapping, name) ? mapping[name] : undefined;
    if (original === undefined) return name;
    return string(original, `tool_name_mapping[${JSON.stringify(name)}]`);
  };
  const encodedByOriginal = new Map(
    Object.entries(mapping).map(([encoded, original]) => [original, encoded]),
  );
  const encodeOf = (original: string): string =>
    (encoded ? encodedByOriginal.get(original) : undefined) ?? original;
  return {
    messages: array(root.messages, 'messages').map((m, i) =>
      restoreMessage(m, extras[String(i)], `messages[${i}]`, decode, encodeOf),
    ),
    tools: array(root.tools ?? [], 'tools').map((t, i) => restoreTool(t, `tools[${i}]`, decode)),
  };
}
