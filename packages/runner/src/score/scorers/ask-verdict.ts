import { contentText, type LLMClient, type LLMMessage } from '@skein/spec';
import { ScoreError } from '../../errors/score-error.js';
import { parseVerdict, type VerdictShape, verdictSchema } from './parse-verdict.js';

/** How a model-graded scorer calls its model. */
export interface JudgeModelOptions {
  /** The model that grades: any LLMClient (`@skein/openai`'s, a scripted one in tests). */
  readonly llm: LLMClient;
  /** The model name passed in each request, when the client takes one. */
  readonly model?: string;
  /** Default 0: a grader should answer alike for alike answers. */
  readonly temperature?: number;
  readonly maxTokens?: number;
}

export interface VerdictRequest {
  readonly scorer: string;
  readonly threadId: string;
  readonly messages: readonly LLMMessage[];
  readonly shape: VerdictShape;
  readonly signal: AbortSignal;
}

/** What the model answered: the verdict read from it, and its text as it came. */
export interface Verdict {
  readonly value: Readonly<Record<string, string | number>>;
  readonly answer: string;
}

/**
 * Asks the model for a verdict of `shape`, asking for JSON of its schema where the provider can
 * hold a model to one, and reads it strictly (`parseVerdict`). An answer that is not a verdict is
 * `ScoreError` `VERDICT_INVALID` with the answer; what the client throws is left as it is (the
 * run makes it `SCORER_FAILED`). The request names the item's thread and the node
 * `score:<scorer>`, so rate limiters and traces can tell grading from the run's own calls.
 */
export async function askVerdict(
  options: JudgeModelOptions,
  request: VerdictRequest,
): Promise<Verdict> {
  const response = await options.llm.generate(
    {
      threadId: request.threadId,
      nodeId: `score:${request.scorer}`,
      messages: request.messages,
      tools: [],
      ...(options.model === undefined ? {} : { model: options.model }),
      temperature: options.temperature ?? 0,
      ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
      responseFormat: {
        type: 'json',
        schema: verdictSchema(request.shape),
        name: 'verdict',
      },
    },
    { signal: request.signal },
  );
  const answer = contentText(response?.message?.content ?? '');
  const parsed = parseVerdict(answer, request.shape);
  if (!parsed.ok) throw ScoreError.verdict(request.scorer, parsed.problem, answer);
  return { value: parsed.value, answer };
}

/** A value as a prompt shows it: text as it is, anything else as indented JSON. */
export function promptText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '(nothing)';
  return JSON.stringify(value, null, 2) ?? String(value);
}
