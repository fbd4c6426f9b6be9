import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallExtra } from './call-extra.js';
import { elicitationForm } from './elicitation-form.js';

export interface AskOptions {
  /** How long the person has to answer before the call ends with the thread still waiting. */
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}

/**
 * Asks the client's user for the answer a paused thread waits for, through MCP elicitation, when
 * the client said it supports it: the form of the node's answer schema (`input`) when it has one a
 * form can show (the answer is then the form's content), else a form with one text field (the
 * answer is its text). Undefined when the client cannot ask, when the schema has no form, when the
 * user declines or dismisses it, or when asking fails or times out: the thread then stays paused,
 * and the call's result says how to answer it later.
 */
export async function askForAnswer(
  server: Server,
  extra: CallExtra,
  question: { readonly prompt?: string; readonly input?: unknown },
  options: AskOptions,
): Promise<unknown> {
  if (!server.getClientCapabilities()?.elicitation?.form || options.signal.aborted)
    return undefined;
  const { prompt } = question;
  const form = question.input === undefined ? undefined : elicitationForm(question.input);
  if (question.input !== undefined && form === undefined) return undefined;
  try {
    const reply = await server.elicitInput(
      {
        mode: 'form',
        message: prompt ?? 'The workflow is waiting for your answer.',
        requestedSchema: form ?? {
          type: 'object',
          properties: { answer: { type: 'string', title: 'Answer', description: prompt } },
          required: ['answer'],
        },
      },
      // Sent on the call's own stream (Streamable HTTP), so it reaches the client that asked.
      { relatedRequestId: extra.requestId, signal: options.signal, timeout: options.timeoutMs },
    );
    if (reply.action !== 'accept') return undefined;
    if (form !== undefined) return reply.content ?? {};
    const answer = reply.content?.answer;
    return typeof answer === 'string' ? answer : undefined;
  } catch {
    return undefined;
  }
}
