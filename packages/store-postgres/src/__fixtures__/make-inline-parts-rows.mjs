// Makes inline-parts-v3.json: the rows the store wrote, before attachments (schema version 3), for
// a thread whose messages hold an image, a PDF and a tool's image inline. Run it from
// packages/store-postgres of a checkout of that code, built:
//   node src/__fixtures__/make-inline-parts-rows.mjs > /tmp/inline-parts-v3.json
import { chatWorkflow, SkeinEngine, toolOutput } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { PostgresCheckpointStore } from '@skein/store-postgres';
import { startTestPostgres } from '@skein/store-postgres/testing';

const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 3,
  0, 0, 0, 2, 8, 6, 0, 0, 0,
]);
const PDF = new TextEncoder().encode('%PDF-1.4\n% made before attachments\n');

const server = await startTestPostgres();
const store = new PostgresCheckpointStore({ connectionString: server.connectionString, schema: 'old' });
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
await store.close();
const pg = await import('pg');
const client = new pg.default.Client({ connectionString: server.connectionString });
await client.connect();
const rows = {};
for (const table of ['migrations', 'threads', 'checkpoints', 'messages', 'log_entries']) {
  const { rows: found } = await client.query(`SELECT * FROM old.${table} ORDER BY 1, 2`);
  rows[table] = found;
}
await client.end();
await server.stop();
process.stdout.write(`${JSON.stringify(rows, null, 1)}\n`);
