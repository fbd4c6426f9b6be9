import { ToolBenchStatus } from '../client/status-codes.js';
import { pyJsonToJs } from '../python/python-json.js';
import { parsePyJson } from '../python/python-json-parse.js';
import { pyFindSlice } from '../python/python-text.js';

export type FinishReturnType = 'give_answer' | 'give_up_and_restart';

export type FinishProblem = 'missing-return-type' | 'missing-final-answer' | 'invalid-return-type';

/** What a `Finish` call amounts to, with the reply and status the reference gives it. */
export type FinishOutcome =
  | {
      readonly kind: 'answer';
      readonly returnType: 'give_answer';
      readonly finalAnswer: string;
      readonly reply: string;
      readonly status: typeof ToolBenchStatus.FINAL_ANSWER;
    }
  | {
      readonly kind: 'give-up';
      readonly returnType: 'give_up_and_restart';
      readonly finalAnswer: string | undefined;
      readonly reply: string;
      readonly status: typeof ToolBenchStatus.GIVE_UP;
    }
  | {
      readonly kind: 'invalid';
      readonly problem: FinishProblem;
      /** Deliberately not JSON: the reference's replies for bad Finish input are written this way. */
      readonly reply: string;
      readonly status: typeof ToolBenchStatus.BAD_FINISH_INPUT;
    };

// rapidapi.py L314-341, byte for byte.
export const FINISH_REPLIES = {
  missingReturnType: '{error:"must have "return_type""}',
  giveUp: '{"response":"chose to give up and restart"}',
  missingFinalAnswer: '{error:"must have "final_answer""}',
  answered: '{"response":"successfully giving the final answer."}',
  invalidReturnType: '{error:""return_type" is not a valid choice"}',
} as const;

const RETURN_TYPE_MARK = '"return_type": "';
const FINAL_ANSWER_MARK = '"final_answer": "';

function answerText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  return JSON.stringify(value);
}

/** The Finish rules applied to arguments already read as an object. */
export function finishOutcomeFromArguments(args: Readonly<Record<string, unknown>>): FinishOutcome {
  if (!Object.hasOwn(args, 'return_type'))
    return {
      kind: 'invalid',
      problem: 'missing-return-type',
      reply: FINISH_REPLIES.missingReturnType,
      status: ToolBenchStatus.BAD_FINISH_INPUT,
    };
  const returnType = args.return_type;
  const hasAnswer = Object.hasOwn(args, 'final_answer');
  if (returnType === 'give_up_and_restart')
    return {
      kind: 'give-up',
      returnType,
      finalAnswer: hasAnswer ? answerText(args.final_answer) : undefined,
      reply: FINISH_REPLIES.giveUp,
      status: ToolBenchStatus.GIVE_UP,
    };
  if (returnType === 'give_answer') {
    if (!hasAnswer)
      return {
        kind: 'invalid',
        problem: 'missing-final-answer',
        reply: FINISH_REPLIES.missingFinalAnswer,
        status: ToolBenchStatus.BAD_FINISH_INPUT,
      };
    return {
      kind: 'answer',
      returnType,
      finalAnswer: answerText(args.final_answer),
      reply: FINISH_REPLIES.answered,
      status: ToolBenchStatus.FINAL_ANSWER,
    };
  }
  return {
    kind: 'invalid',
    problem: 'invalid-return-type',
    reply: FINISH_REPLIES.invalidReturnType,
    status: ToolBenchStatus.BAD_FINISH_INPUT,
  };
}

/**
 * The reference's reading of a raw Finish Action Input (rapidapi.py L314-341): `json.loads` with
 * `strict=False`, and when that fails a substring fallback that needs `"return_type": "` with
 * exactly one space and takes everything after `"final_answer": "` (closing quote and brace
 * included) as the answer.
 */
export function finishOutcomeReference(actionInput: string): FinishOutcome {
  const parsed = parsePyJson(actionInput, { strict: false });
  if (parsed.ok) {
    // A JSON value that is not an object has no keys (the reference would crash on .keys()).
    const value =
      parsed.value.kind === 'object' ? (pyJsonToJs(parsed.value) as Record<string, unknown>) : {};
    return finishOutcomeFromArguments(value);
  }
  const args: Record<string, unknown> = {};
  if (actionInput.includes(RETURN_TYPE_MARK)) {
    if (actionInput.includes('"return_type": "give_answer"')) args.return_type = 'give_answer';
    else if (actionInput.includes('"return_type": "give_up_and_restart"'))
      args.return_type = 'give_up_and_restart';
    else args.return_type = pyFindSlice(actionInput, RETURN_TYPE_MARK, '",');
  }
  if (actionInput.includes(FINAL_ANSWER_MARK))
    args.final_answer = pyFindSlice(actionInput, FINAL_ANSWER_MARK);
  return finishOutcomeFromArguments(args);
}
