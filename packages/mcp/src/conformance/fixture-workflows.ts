// Workflows that answer the MCP conformance suite's tool scenarios: each workflow id is the tool
// name the scenario calls. The content ones (`tools-call-image`, …) end with outputs that name
// their parts the way the README tells app authors to; the others are plain workflows whose
// events become the log and progress a client follows, one failing as any workflow fails.
import { defineTool, type SkeinEngine, WorkflowBuilder } from '@skein/core';
import type { ContentPart } from '@skein/spec';

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

/** Registers one workflow per tool scenario. */
export function registerConformanceWorkflows(engine: SkeinEngine): void {
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
