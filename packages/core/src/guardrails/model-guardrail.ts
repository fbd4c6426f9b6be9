import { contentText, type LLMClient, type LLMMessage } from '@skein/spec';
import type { Guardrail, GuardrailStage, GuardrailSubject, GuardrailVerdict } from './guardrail.js';

export interface ModelGuardrailOptions {
  /** The classifier: any `LLMClient` (a small, fast model is the usual choice). */
  readonly llm: LLMClient;
  /** What to allow and what to stop, in plain words; the subject is sent after it. */
  readonly instructions: string;
  /** The stages it checks (default input and output). */
  readonly stages?: readonly GuardrailStage[];
  readonly model?: string;
  readonly timeoutMs?: number;
  /** Input only: check beside the model call (see `Guardrail.beside`). */
  readonly beside?: boolean;
  /** A trip also ends the chat (see `GuardrailVerdict`). */
  readonly endsChat?: boolean;
}

const VERDICT_SCHEMA = {
  type: 'object',
  properties: {
    verdict: { type: 'string', enum: ['pass', 'trip'] },
    reason: { type: 'string' },
  },
  required: ['verdict', 'reason'],
  additionalProperties: false,
} as const;

const ANSWER_FORMAT =
  'Answer with one JSON object and nothing else: {"verdict": "pass" or "trip", "reason": "<one sentence>"}. ' +
  '"trip" stops the conversation; use it only for what the instructions say to stop.';

function line(message: LLMMessage): string {
  return `${message.role}: ${contentText(message.content)}`;
}

/** The subject as the text the classifier reads. */
function describeSubject(subject: GuardrailSubject): string {
  switch (subject.stage) {
    case 'input':
      return `The user sent:\n${subject.messages.map(line).join('\n')}`;
    case 'output':
      return `The assistant is about to answer:\n${contentText(subject.message.content)}`;
    case 'tool-call':
      return `The assistant is about to call the tool "${subject.call.name}" with these arguments:\n${JSON.stringify(subject.call.arguments)}`;
    default:
      return `The tool "${subject.call.name}" returned:\n${contentText(subject.result.content)}`;
  }
}

/**
 * Reads the classifier's answer strictly: one JSON object (a fenced block is unwrapped) with
 * `verdict` "pass" or "trip" and a string `reason`. Anything else throws, and the check fails
 * `GUARDRAIL_FAILED`: an answer nobody can read is never taken as a pass.
 */
export function parseClassifierVerdict(text: string): { verdict: 'pass' | 'trip'; reason: string } {
  const trimmed = text
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    throw new Error(`the classifier did not answer JSON: ${JSON.stringify(text.slice(0, 200))}`);
  }
  const answer = value as { verdict?: unknown; reason?: unknown } | null;
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer))
    throw new Error('the classifier did not answer a JSON object');
  if (answer.verdict !== 'pass' && answer.verdict !== 'trip')
    throw new Error(
      `the classifier's verdict ${JSON.stringify(answer.verdict) ?? 'is missing'} is not "pass" or "trip"`,
    );
  if (typeof answer.reason !== 'string') throw new Error("the classifier's answer has no reason");
  return { verdict: answer.verdict, reason: answer.reason };
}

/**
 * A guardrail that asks a model: `instructions` as the system prompt, the subject as the user
 * message, a JSON verdict back (asked for with a response format, and read strictly either way).
 * A model call that fails, or an answer that is not a verdict, fails the check.
 */
export function modelGuardrail(options: ModelGuardrailOptions): Guardrail {
  const { llm, instructions } = options;
  return {
    stages: options.stages ?? ['input', 'output'],
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.beside === undefined ? {} : { beside: options.beside }),
    async check(subject, context): Promise<GuardrailVerdict> {
      const response = await llm.generate(
        {
          threadId: context.threadId,
          nodeId: context.nodeId,
          messages: [
            { role: 'system', content: `${instructions}\n\n${ANSWER_FORMAT}` },
            { role: 'user', content: describeSubject(subject) },
          ],
          tools: [],
          responseFormat: { type: 'json', schema: VERDICT_SCHEMA, name: 'guardrail_verdict' },
          ...(options.model === undefined ? {} : { model: options.model }),
        },
        { signal: context.signal },
      );
      const { verdict, reason } = parseClassifierVerdict(contentText(response.message.content));
      if (verdict === 'pass') return { action: 'pass' };
      return { action: 'trip', reason, ...(options.endsChat ? { endsChat: true } : {}) };
    },
  };
}
