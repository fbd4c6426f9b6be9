import { SkeinEngine, type Tool, WorkflowBuilder } from '@skein/core';
import { startOpenAICompatibleServer } from '@skein/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIClient } from './client/create-openai-client.js';
import { exportTranscript } from './transcript/export-transcript.js';
import { restoreTranscript } from './transcript/restore-transcript.js';

// The client inside the engine, against a real HTTP server on 127.0.0.1 whose stream has the
// quirks that broke the original system: a null id on the first fragment, no index.

const LONG_NAME =
  'travel.bookings / look up the refund and cancellation rules for a fare class (version 2.1)';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

interface RequestBody {
  messages: {
    role: string;
    tool_calls?: { id: unknown; function: { name: string } }[];
    tool_call_id?: unknown;
  }[];
  tools?: { function: { name: string } }[];
}

describe('@skein/openai in a @skein/core workflow', () => {
  it('encodes a 90-character tool name, runs the tool by its original name, exports a consistent transcript', async () => {
    expect(LONG_NAME.length).toBe(90);
    const ran: unknown[] = [];
    const policy: Tool<{ fareClass: string }> = {
      name: LONG_NAME,
      description: 'Refund rules for a fare class',
      parameters: {
        type: 'object',
        properties: { fareClass: { type: 'string' } },
        required: ['fareClass'],
      },
      execute: (args) => {
        ran.push(args);
        return `Refundable until 24 hours before departure (${args.fareClass}).`;
      },
    };
    const server = await startOpenAICompatibleServer({
      quirks: { nullIdOnFirstChunk: true, noIndex: true, usageOnlyFinalChunk: true },
      script: (request) => {
        const body = request.body as RequestBody;
        const last = body.messages.at(-1)!;
        if (last.role === 'tool')
          return {
            content: 'Flex fares are refundable until a day before.',
            usage: { promptTokens: 60, completionTokens: 10 },
          };
        // The model can only use the name it was shown.
        const offered = body.tools!.map((t) => t.function.name);
        return {
          toolCalls: [{ name: offered[0]!, arguments: '{"fareClass": "flex"}' }],
          usage: { promptTokens: 50, completionTokens: 12 },
        };
      },
    });
    closers.push(() => server.close());

    const llm = createOpenAIClient({ baseURL: server.url, apiKey: 'test', model: 'testkit-model' });
    const engine = new SkeinEngine({ llm });
    engine.registerTool(policy);
    engine.registerWorkflow(
      new WorkflowBuilder('policy', '1')
        .initialTools([LONG_NAME])
        .start()
        .llm('ask')
        .end('end')
        .chain('start', 'ask', 'end')
        .build(),
    );
    const calls: string[] = [];
    const tokens: string[] = [];
    engine.events.on('tool:call', (e) => calls.push(e.name));
    engine.events.on('llm:token', (e) => tokens.push(e.delta));
    const { thread, result } = await engine.run('policy', {
      input: 'Can I get a refund on a flex fare?',
    });

    expect(result.status).toBe('COMPLETED');
    expect(result.output).toBe('Flex fares are refundable until a day before.');
    expect(tokens.join('')).toBe(result.output);
    expect(result.usage).toEqual({ promptTokens: 110, completionTokens: 22, totalTokens: 132 });

    // The model saw the encoded name only; the tool ran under its original name.
    const encoded = llm.toolNames.encode(LONG_NAME);
    expect(encoded).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(encoded.startsWith('travel_bookings___look_up_the_refund')).toBe(true);
    for (const request of server.requests) {
      const body = request.body as RequestBody;
      expect(body.tools!.map((t) => t.function.name)).toEqual([encoded]);
      expect(JSON.stringify(body)).not.toContain(LONG_NAME);
    }
    // Even the engine's tool-description message names the tool as the model must call it.
    const first = server.requests[0]!.body as { messages: { role: string; content: string }[] };
    expect(first.messages[0]!.content).toBe(
      `Available tools:\n- ${encoded}: Refund rules for a fare class`,
    );
    expect(calls).toEqual([LONG_NAME]);
    expect(ran).toEqual([{ fareClass: 'flex' }]);

    // No request ever carried a null or empty tool-call id.
    for (const request of server.requests) {
      for (const message of (request.body as RequestBody).messages) {
        for (const call of message.tool_calls ?? [])
          expect(typeof call.id === 'string' && call.id.length > 0).toBe(true);
        if (message.role === 'tool')
          expect(typeof message.tool_call_id === 'string' && message.tool_call_id.length > 0).toBe(
            true,
          );
      }
    }
    const second = server.requests.at(-1)!.body as RequestBody;
    const assistant = second.messages.find((m) => m.tool_calls)!;
    expect(assistant.tool_calls![0]!.function.name).toBe(encoded);

    // The exported transcript uses the encoded name everywhere, with the mapping back.
    const messages = thread.conversation.getAllMessages();
    const transcript = exportTranscript(messages, [policy], { codec: llm.toolNames });
    expect(transcript.tool_name_mapping).toEqual({ [encoded]: LONG_NAME });
    expect(transcript.tools.map((t) => t.function.name)).toEqual([encoded]);
    const namesInMessages = transcript.messages.flatMap((m) =>
      'tool_calls' in m && m.tool_calls ? m.tool_calls.map((c) => c.function.name) : [],
    );
    expect(namesInMessages).toEqual([encoded]);
    expect(JSON.stringify(transcript.messages)).not.toContain(LONG_NAME);
    const restored = restoreTranscript(transcript);
    expect(restored.messages).toEqual(messages);
  });
});
