// The client the MCP conformance suite's client mode runs (`conformance client --command …`): what
// Skein does when it consumes an MCP server. An MCP SDK `Client` answers the server's requests
// through `answerMcpServerRequests` (sampling with the app's model; elicitation with the app's
// handler, which here accepts the form's defaults), its tools become Skein tools
// (`fromMcpClient`), and a Skein thread whose scripted model calls every tool once runs them.
//   node --import tsx conformance-client.ts <server url>
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { chatWorkflow, SkeinEngine } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { answerMcpServerRequests } from '../mcp/answer-server-requests.js';
import { fromMcpClient } from '../mcp/from-mcp-client.js';

const url = process.argv.at(-1);
if (!url?.startsWith('http')) {
  process.stderr.write('usage: conformance-client.ts <server url>\n');
  process.exit(2);
}

/** The app's elicitation handler: a form shown with its defaults, accepted as they are. */
function acceptDefaults(request: ElicitRequest['params']): ElicitResult {
  const schema = 'requestedSchema' in request ? request.requestedSchema : undefined;
  const content: Record<string, string | number | boolean> = {};
  for (const [name, property] of Object.entries(schema?.properties ?? {}))
    if ('default' in property && property.default !== undefined)
      content[name] = property.default as string | number | boolean;
  return { action: 'accept', content };
}

/** Arguments a scripted model gives a tool: numbers for numbers, text for the rest. */
function argumentsFor(schema: { properties?: Record<string, { type?: unknown }> }) {
  return Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([name, p], i) => [
      name,
      p.type === 'number' || p.type === 'integer' ? i + 2 : 'x',
    ]),
  );
}

const model = new ScriptedLLMClient([{ content: 'The app’s model answers.' }], {
  whenExhausted: 'repeat-last',
});
const client = new Client(
  { name: 'skein-interop', version: '1.0.0' },
  { capabilities: { sampling: {}, elicitation: {} } },
);
answerMcpServerRequests(client, { llm: model, elicit: acceptDefaults });
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
const tools = await fromMcpClient(client);

const calls = tools.map((tool, i) => ({
  id: `call_${i}`,
  name: tool.name,
  arguments: argumentsFor(tool.parameters as never),
}));
const engine = new SkeinEngine({
  llm: new ScriptedLLMClient([
    ...(calls.length > 0 ? [{ toolCalls: calls }] : []),
    { content: 'done' },
  ]),
});
engine.registerTools(tools);
engine.registerWorkflow(chatWorkflow({ tools: tools.map((t) => t.name) }));
const { result } = await engine.run('chat', { input: 'Use every tool once.' });
process.stdout.write(`${result.status}\n`);
await client.close();
process.exit(result.status === 'COMPLETED' ? 0 : 1);
