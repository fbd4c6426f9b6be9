// Workflows whose END outputs answer the MCP conformance suite's content scenarios
// (`tools-call-image`, `tools-call-audio`, `tools-call-embedded-resource`,
// `tools-call-mixed-content`): each workflow id is the tool name the scenario calls, and each
// output names its parts the way the README tells app authors to.
import { type SkeinEngine, WorkflowBuilder } from '@skein/core';
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

/** Registers one workflow per scenario: a VARIABLE node sets the output, the END returns it. */
export function registerConformanceWorkflows(engine: SkeinEngine): void {
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
