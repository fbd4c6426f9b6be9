import { once } from 'node:events';
import { createServer } from 'node:net';
import {
  chatWorkflow,
  type LLMMessage,
  SkeinEngine,
  type ThreadResult,
  type Tool,
} from '@skein/core';
import { ScriptedLLMClient, type ScriptStep } from '@skein/core/testing';

export interface EngineRun {
  readonly result: ThreadResult;
  /** The tool messages the thread stored, in order. */
  readonly toolMessages: LLMMessage[];
  readonly llm: ScriptedLLMClient;
}

/**
 * Runs a chat thread whose scripted model follows `script` with `tool` registered: what a user
 * of the tool sees, through the real engine (its idempotency keys, signals and result storage).
 */
export async function runInEngine(
  tool: Tool<never>,
  script: ScriptStep[],
  options: { signal?: AbortSignal } = {},
): Promise<EngineRun> {
  const llm = new ScriptedLLMClient(script);
  const engine = new SkeinEngine({ llm });
  engine.registerTool(tool);
  engine.registerWorkflow(chatWorkflow({ tools: [tool.name] }));
  const thread = engine.createThread('chat', { input: 'Help me.' });
  const { result } = await engine.run(thread, options);
  const toolMessages = thread.conversation.getAllMessages().filter((m) => m.role === 'tool');
  return { result, toolMessages, llm };
}

/** A URL on 127.0.0.1 where nothing listens (a port just given back). */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
