// Makes inline-parts-v3.db: a thread whose messages hold an image, a PDF and a tool's image
// inline, written by the store as it was before attachments (schema version 3). Run it from
// packages/store-sqlite of a checkout of that code, built, with the output path as argument:
//   node src/__fixtures__/make-inline-parts-file.mjs /tmp/inline-parts-v3.db
import { chatWorkflow, SkeinEngine, toolOutput } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { SqliteCheckpointStore } from '@skein/store-sqlite';

const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 3,
  0, 0, 0, 2, 8, 6, 0, 0, 0,
]);
const PDF = new TextEncoder().encode('%PDF-1.4\n% made before attachments\n');

const store = new SqliteCheckpointStore({ filename: process.argv[2] });
const llm = new ScriptedLLMClient((request) =>
  request.messages.at(-1).role === 'user'
    ? { toolCalls: [{ name: 'chart', arguments: {} }] }
    : { content: 'a chart of three by two' },
);
const engine = new SkeinEngine({ llm, store, now: () => Date.parse('2026-11-29T12:00:00Z') });
engine.registerTool({
  name: 'chart',
  description: 'Draws the chart',
  parameters: { type: 'object', properties: {} },
  execute: () =>
    toolOutput({
      content: [
        { type: 'text', text: 'the chart' },
        { type: 'image', mediaType: 'image/png', data: PNG },
      ],
    }),
});
engine.registerWorkflow(chatWorkflow({ tools: ['chart'] }));
await engine.send('before', {
  content: [
    { type: 'text', text: 'what is on it?' },
    { type: 'image', mediaType: 'image/png', data: PNG },
    { type: 'file', mediaType: 'application/pdf', filename: 'q3.pdf', data: PDF },
  ],
});
engine.close();
store.close();
