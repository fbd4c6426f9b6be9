/**
 * The Chat Completions request shapes this package writes (a structural subset of the `openai`
 * package's param types, so one definition serves openai 5 and 6 and the transcript export).
 */
export interface OpenAIToolCallParam {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
  /** Provider data that must travel back with the call (Gemini's thought signatures). */
  extra_content?: unknown;
}

export interface OpenAISystemMessageParam {
  role: 'system';
  content: string;
  name?: string;
}

/** A part of a user message (decision 0031's parts as Chat Completions takes them). */
export type OpenAIUserContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: 'auto' | 'low' | 'high' } }
  | { type: 'input_audio'; input_audio: { data: string; format: 'wav' | 'mp3' } }
  | { type: 'file'; file: { file_data?: string; file_id?: string; filename?: string } };

export interface OpenAIUserMessageParam {
  role: 'user';
  /** Text, or parts when the message carries media (or the media of tool results, 0032). */
  content: string | OpenAIUserContentPart[];
  name?: string;
}

export interface OpenAIAssistantMessageParam {
  role: 'assistant';
  /** `null` when the message only carries tool calls. */
  content: string | null;
  name?: string;
  tool_calls?: OpenAIToolCallParam[];
}

export interface OpenAIToolMessageParam {
  role: 'tool';
  content: string;
  tool_call_id: string;
}

export type OpenAIMessageParam =
  | OpenAISystemMessageParam
  | OpenAIUserMessageParam
  | OpenAIAssistantMessageParam
  | OpenAIToolMessageParam;

export interface OpenAIFunctionToolParam {
  type: 'function';
  function: {
    name: string;
    description: string;
    parameters: Record<string, unknown>;
    strict?: boolean;
  };
}
