import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import { ScriptedLLMClient } from '@skein/core/testing';
import { contentText, isToolOutput, type LLMRequest } from '@skein/spec';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidInteropOptionError } from '../errors/invalid-interop-option-error.js';
import { toolContext } from '../test-support/tool-context.js';
import { answerMcpServerRequests, type McpServerRequestOptions } from './answer-server-requests.js';
import { fromMcpClient } from './from-mcp-client.js';

/** A server whose tools ask the client: one samples its model, one elicits a form. */
function askingServer() {
  const server = new McpServer({ name: 'asker', version: '1.0.0' });
  server.registerTool(
    'summarise',
    { description: 'Summarises with the client’s model' },
    async () => {
      const sampled = (await server.server.createMessage({
        systemPrompt: 'Be terse.',
        messages: [
          { role: 'user', content: { type: 'text', text: 'Summarise: the sky is blue.' } },
        ],
        maxTokens: 50,
      })) as CreateMessageResult;
      const text = sampled.content.type === 'text' ? sampled.content.text : '';
      return { content: [{ type: 'text', text: `${sampled.model} said: ${text}` }] };
    },
  );
  server.registerTool('ask_name', { description: 'Asks for a name' }, async () => {
    const answer = await server.server.elicitInput({
      message: 'Your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: [] },
    });
    return {
      content: [
        { type: 'text', text: `${answer.action}: ${JSON.stringify(answer.content ?? {})}` },
      ],
    };
  });
  return server;
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function connected(capabilities: object, options: McpServerRequestOptions) {
  const server = askingServer();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client(
    { name: 'skein-app', version: '1.0.0' },
    { capabilities: capabilities as never },
  );
  answerMcpServerRequests(client, options);
  await client.connect(clientSide);
  close = async () => {
    await client.close();
    await server.close();
  };
  return fromMcpClient(client);
}

async function run(tools: Awaited<ReturnType<typeof fromMcpClient>>, name: string) {
  const tool = tools.find((t) => t.name === name)!;
  const result = await tool.execute({}, toolContext());
  if (!isToolOutput(result)) throw new Error('expected a ToolOutput');
  return result;
}

describe('answerMcpServerRequests: what a server asks while its tools run', () => {
  it('answers sampling with the app’s model: system prompt, messages and limits as the model sees them', async () => {
    const seen: LLMRequest[] = [];
    const llm = new ScriptedLLMClient((request: LLMRequest) => {
      seen.push(request);
      return { content: 'Blue sky.' };
    });
    const tools = await connected({ sampling: {} }, { llm });
    const result = await run(tools, 'summarise');
    expect(result.content).toBe(`${llm.name} said: Blue sky.`);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.messages.map((m) => [m.role, contentText(m.content)])).toEqual([
      ['system', 'Be terse.'],
      ['user', 'Summarise: the sky is blue.'],
    ]);
    expect(seen[0]!.maxTokens).toBe(50);
  });

  it('declines an elicitation without a handler, and answers it with one', async () => {
    const declined = await run(await connected({ elicitation: {} }, {}), 'ask_name');
    expect(declined.content).toBe('decline: {}');
    await close?.();
    const answered = await run(
      await connected(
        { elicitation: {} },
        {
          elicit: (request) => ({
            action: 'accept',
            content: { name: request.message.length > 0 ? 'Ada' : '' },
          }),
        },
      ),
      'ask_name',
    );
    expect(answered.content).toBe('accept: {"name":"Ada"}');
  });

  it('refuses what the client did not declare, and bad options, before connecting', async () => {
    const client = new Client({ name: 'x', version: '1' }, { capabilities: {} });
    const llm = new ScriptedLLMClient([{ content: 'x' }]);
    expect(() => answerMcpServerRequests(client, { llm })).toThrow(InvalidInteropOptionError);
    expect(() => answerMcpServerRequests(client, { llm })).toThrow(/sampling: \{\}/);
    expect(() =>
      answerMcpServerRequests(client, { elicit: () => ({ action: 'decline' }) }),
    ).toThrow(/elicitation: \{\}/);
    expect(() => answerMcpServerRequests(client, { llm: {} as never })).toThrow(/LLMClient/);
    expect(() => answerMcpServerRequests(client, null as never)).toThrow(InvalidInteropOptionError);
  });
});
