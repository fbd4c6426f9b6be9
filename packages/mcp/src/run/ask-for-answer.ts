import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallExtra } from './call-extra.js';

export interface AskOptions {
  /** How long the person has to answer before the call ends with the thread still waiting. */
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}

/**
 * Asks the client's user for the answer a paused thread waits for, through MCP elicitation (a
 * form with one text field), when the client said it supports it. Undefined when it does not,
 * when the user declines or dismisses the form, or when asking fails or times out: the thread
 * then stays paused, and the call's result says how to answer it later.
 */
export async function askForAnswer(
  server: Server,
  extra: CallExtra,
  prompt: string | undefined,
  options: AskOptions,
): Promise<string | undefined> {
  if (!server.getClientCapabilities()?.elicitation?.form || options.signal.aborted)
    return undefined;
  try {
    const reply = await server.elicitInput(
      {
        mode: 'form',
        message: prompt ?? 'The workflow is waiting for your answer.',
        requestedSchema: {
          type: 'object',
          properties: { answer: { type: 'string', title: 'Answer', description: prompt } },
          required: ['answer'],
        },
      },
      // Sent on the call's own stream (Streamable HTTP), so it reaches the client that asked.
      { relatedRequestId: extra.requestId, signal: options.signal, timeout: options.timeoutMs },
    );
    const answer = reply.action === 'accept' ? reply.content?.answer : undefined;
    return typeof answer === 'string' ? answer : undefined;
  } catch {
    return undefined;
  }
}
