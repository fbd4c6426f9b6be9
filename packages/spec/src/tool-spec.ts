/** A JSON Schema object (draft 2020-12 or draft-07 as the consumer expects). */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** What a model is told about a tool. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  /** OpenAI-style strict schema adherence, passed through to adapters that support it. */
  readonly strict?: boolean;
}
