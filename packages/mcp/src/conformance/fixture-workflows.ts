// Workflows that answer the MCP conformance suite's tool scenarios: each workflow id is the tool
// name the scenario calls. The content ones (`tools-call-image`, …) end with outputs that name
// their parts the way the README tells app authors to; the others are plain workflows whose
// events become the log and progress a client follows, one failing as any workflow fails.
import { defineTool, type SkeinEngine, WorkflowBuilder } from '@skein/core';
import type { ContentPart, JsonSchema } from '@skein/spec';

/** A 1x1 PNG, what the suite's note asks for ("a minimal test image"). */
export const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
/** A WAV header with no samples (8 kHz, mono, 8-bit): "a minimal test audio file". */
export const SILENT_WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=';

function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

/** Each scenario's tool name and the output its workflow ends with. */
const CONFORMANCE_OUTPUTS: Readonly<Record<string, { content: readonly ContentPart[] }>> = {
  test_simple_text: {
    content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
  },
  test_image_content: { content: [{ type: 'image', mediaType: 'image/png', data: PIXEL_PNG }] },
  test_audio_content: { content: [{ type: 'audio', mediaType: 'audio/wav', data: SILENT_WAV }] },
  test_embedded_resource: {
    content: [
      {
        type: 'file',
        mediaType: 'text/plain',
        // A file name that is a URI is the embedded resource's URI (see the README).
        filename: 'test://embedded-resource',
        data: base64('This is an embedded resource content.'),
      },
    ],
  },
  test_multiple_content_types: {
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', mediaType: 'image/png', data: PIXEL_PNG },
      {
        type: 'file',
        mediaType: 'application/json',
        filename: 'test://mixed-content-resource',
        data: base64('{"test":"data","value":123}'),
      },
    ],
  },
};

/** A workflow of three steps: a log of its events, or progress per node, for a client to follow. */
function steps(id: string, description: string) {
  return new WorkflowBuilder(id, '1')
    .describe({ description })
    .start()
    .variable('started', { values: { stage: 'started' } })
    .variable('processing', { values: { stage: 'processing' } })
    .variable('completed', { values: { stage: 'completed', result: `${id} done` } })
    .end('end', { output: 'vars.result' })
    .chain('start', 'started', 'processing', 'completed', 'end')
    .build();
}

/** A workflow that asks a person for an answer of `input`'s shape, and ends with the answer. */
function ask(id: string, description: string, prompt: string, input: JsonSchema) {
  return new WorkflowBuilder(id, '1')
    .describe({ description })
    .start()
    .userInteraction('ask', { prompt, variable: 'answer', input })
    .end('end', { output: 'vars.answer' })
    .chain('start', 'ask', 'end')
    .build();
}

/** SEP-1034: a default for every primitive type. */
const WITH_DEFAULTS: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', default: 'John Doe' },
    age: { type: 'integer', default: 30 },
    score: { type: 'number', default: 95.5 },
    status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', default: true },
  },
};

/** SEP-1330: single and multiple choices, with titles and without, and the legacy `enumNames`. */
const CHOICES: JsonSchema = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: {
      type: 'string',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: {
      type: 'array',
      items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    },
    titledMulti: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
};

/** Registers one workflow per tool scenario. */
export function registerConformanceWorkflows(engine: SkeinEngine): void {
  // Runs on whatever model the engine has: over MCP, the calling client's (McpSamplingModel).
  engine.registerWorkflow(
    new WorkflowBuilder('test_sampling', '1')
      .describe({ description: "MCP conformance fixture: one answer of the client's model" })
      .variables({
        schema: {
          type: 'object',
          properties: { prompt: { type: 'string', description: 'The prompt to send to the LLM' } },
          required: ['prompt'],
        },
      })
      .start()
      .llm('reply', { prompt: '{{ vars.prompt }}', maxTokens: 100, outputVariable: 'answer' })
      .end('end', { output: 'vars.answer' })
      .chain('start', 'reply', 'end')
      .build(),
  );
  // Declaring `message` makes it the tool's argument (not the first user message).
  engine.registerWorkflow(
    new WorkflowBuilder('test_elicitation', '1')
      .describe({ description: 'MCP conformance fixture: asks who the user is' })
      .variables({
        schema: {
          type: 'object',
          properties: { message: { type: 'string', description: 'The message to show the user' } },
          required: ['message'],
        },
      })
      .start()
      .userInteraction('ask', {
        prompt: '{{ vars.message }}',
        variable: 'answer',
        input: {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        },
      })
      .end('end', { output: 'vars.answer' })
      .chain('start', 'ask', 'end')
      .build(),
  );
  engine.registerWorkflow(
    ask(
      'test_elicitation_sep1034_defaults',
      'MCP conformance fixture: a form with a default for every type',
      'Tell us about yourself',
      WITH_DEFAULTS,
    ),
  );
  engine.registerWorkflow(
    ask(
      'test_elicitation_sep1330_enums',
      'MCP conformance fixture: a form of choices',
      'Pick your options',
      CHOICES,
    ),
  );
  engine.registerWorkflow(
    steps('test_tool_with_logging', 'MCP conformance fixture: three steps, each in the log'),
  );
  engine.registerWorkflow(
    steps(
      'test_tool_with_progress',
      'MCP conformance fixture: three steps, each a progress notification',
    ),
  );
  engine.registerTool(
    defineTool({
      name: 'fail_on_purpose',
      description: 'Always fails',
      parameters: { type: 'object', properties: {} },
      execute: () => {
        throw new Error('This tool intentionally returns an error for testing');
      },
    }),
  );
  engine.registerWorkflow(
    new WorkflowBuilder('test_error_handling', '1')
      .describe({ description: 'MCP conformance fixture: a workflow whose tool fails' })
      .start()
      .tool('fail', { tool: 'fail_on_purpose' })
      .end()
      .chain('start', 'fail', 'end')
      .build(),
  );
  engine.registerWorkflow(
    new WorkflowBuilder('json_schema_2020_12_tool', '1')
      .describe({ description: 'Tool with JSON Schema 2020-12 features' })
      .variables({
        schema: {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          $defs: {
            address: {
              type: 'object',
              properties: { street: { type: 'string' }, city: { type: 'string' } },
            },
          },
          properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
          additionalProperties: false,
        },
      })
      .start()
      .end('end', { output: 'vars' })
      .chain('start', 'end')
      .build(),
  );
  for (const [id, output] of Object.entries(CONFORMANCE_OUTPUTS))
    engine.registerWorkflow(
      new WorkflowBuilder(id, '1')
        .describe({ description: `MCP conformance fixture: ${id}` })
        .start()
        .variable('set', { values: { result: output } })
        .end('end', { output: 'vars.result' })
        .chain('start', 'set', 'end')
        .build(),
    );
}
