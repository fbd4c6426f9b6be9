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

export interface OpenAIUserMessageParam {
  role: 'user';
  content: string;
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
