import type { LLMMessage } from '@skein/spec';
import { invalidOption } from '../../errors/invalid-option.js';
import type { Scorer, ScorerInput, ScoreValue } from '../scorer.js';
import { askVerdict, type JudgeModelOptions, promptText } from './ask-verdict.js';
import type { VerdictShape } from './parse-verdict.js';

export interface RubricScorerOptions extends JudgeModelOptions {
  /** The scorer's name in `scores.jsonl` (default `rubric`). */
  readonly name?: string;
  /** What a good answer does, in the grader's words: the one thing it judges. */
  readonly rubric: string;
  /**
   * The highest grade (default 1): the model grades from 0 (fails the rubric) to `scale` (meets
   * it fully), in whole numbers, and the score is the grade divided by `scale`.
   */
  readonly scale?: number;
  /** The request, as the grader reads it (default the item: its text, or its JSON). */
  readonly question?: (input: ScorerInput) => string;
  /** The answer graded (default the item's output: its text, or its JSON). */
  readonly answer?: (input: ScorerInput) => string;
  /** A reference answer shown to the grader, when there is one for the item. */
  readonly reference?: (input: ScorerInput) => string | undefined;
}

function systemPrompt(scale: number): string {
  return [
    'You grade one answer of an AI assistant against a rubric.',
    'Judge only what the rubric asks for; do not reward length, style or confidence it does not mention.',
    `Grade with a whole number from 0 to ${scale}: 0 when the answer fails the rubric entirely, ${scale} when it meets the rubric fully${scale > 1 ? ', the numbers between for partly' : ''}.`,
    'Reply with one JSON object and nothing else, giving your reason first:',
    `{"reason": "<why, in one or two sentences>", "score": <0 to ${scale}>}`,
  ].join('\n');
}

function userPrompt(rubric: string, question: string, answer: string, reference?: string): string {
  const parts = [`Rubric:\n${rubric}`, `Request:\n${question}`];
  if (reference !== undefined) parts.push(`Reference answer:\n${reference}`);
  parts.push(`Answer to grade:\n${answer}`);
  return parts.join('\n\n');
}

/**
 * A model-graded scorer: the rubric, the request and the item's answer go to `llm`, which answers
 * `{"reason", "score"}` (read strictly: anything else gives no score, `VERDICT_INVALID`). The
 * score is the grade over `scale`, the reason the model's; `details` holds the prompt sent
 * (`prompt`), the verdict (`verdict`) and the model's text (`answer`), so a surprising grade can
 * be read back.
 */
export function rubricScorer(options: RubricScorerOptions): Scorer {
  const name = options?.name ?? 'rubric';
  if (typeof options?.llm?.generate !== 'function')
    throw invalidOption('rubricScorer.llm', 'must be an LLMClient');
  if (typeof options.rubric !== 'string' || options.rubric.trim() === '')
    throw invalidOption('rubricScorer.rubric', 'must be a non-empty string');
  const scale = options.scale ?? 1;
  if (!Number.isInteger(scale) || scale < 1 || scale > 100)
    throw invalidOption(
      'rubricScorer.scale',
      `must be a whole number from 1 to 100, got ${String(scale)}`,
    );
  const shape: VerdictShape = {
    reason: { type: 'string' },
    score: { type: 'integer', min: 0, max: scale },
  };
  const system = systemPrompt(scale);
  return {
    name,
    async score(input): Promise<ScoreValue> {
      const question = options.question ? options.question(input) : promptText(input.item);
      const answer = options.answer ? options.answer(input) : promptText(input.result.output);
      const reference = options.reference?.(input);
      const prompt: LLMMessage[] = [
        { role: 'system', content: system },
        { role: 'user', content: userPrompt(options.rubric, question, answer, reference) },
      ];
      const verdict = await askVerdict(options, {
        scorer: name,
        threadId: input.threadId,
        messages: prompt,
        shape,
        signal: input.signal,
      });
      const grade = verdict.value.score as number;
      return {
        score: grade / scale,
        reason: verdict.value.reason as string,
        details: {
          prompt: prompt.map((m) => ({ role: m.role, content: m.content })),
          verdict: verdict.value,
          answer: verdict.answer,
        },
      };
    },
  };
}
