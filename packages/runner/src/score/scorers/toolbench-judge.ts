import type { ToolSpec } from '@skein/spec';
import {
  type AnswerStatus,
  passRateSteps,
  type TaskStatus,
  toConvertedAnswer,
  unsolvedBeforeJudging,
} from '@skein/toolbench';
import { invalidOption } from '../../errors/invalid-option.js';
import { ScoreError } from '../../errors/score-error.js';
import { threadToolSpecs } from '../../export/thread-tools.js';
import type { Scorer, ScorerInput, ScoreValue } from '../scorer.js';
import { askVerdict, type JudgeModelOptions } from './ask-verdict.js';
import { type JudgeDetails, majorityScore } from './judge-details.js';
import { ANSWER_SHAPE, answerPrompt, TASK_SHAPE, taskPrompt } from './judge-prompts.js';

export interface ToolBenchJudgeOptions extends JudgeModelOptions {
  /** The scorer's name in `scores.jsonl` (default `toolbench-judge`). */
  readonly name?: string;
  /**
   * Judgements per item (default 3): the benchmark's `--evaluate_times`. Each is its own model
   * call, with its own verdict in `details`.
   */
  readonly rounds?: number;
  /** The query of an item (default its `query` field, or the item when it is a string). */
  readonly query?: (item: unknown) => string;
  /**
   * Also ask, in each round whose answer is not Solved, whether the query could be solved with
   * the tools given (default true): the ToolBench pass rate needs that verdict for those rounds;
   * the solve rate does not.
   */
  readonly judgeTask?: boolean;
}

function defaultQuery(item: unknown): string {
  if (typeof item === 'string') return item;
  const query = (item as { query?: unknown } | null)?.query;
  return typeof query === 'string' ? query : '';
}

/** The text of a Finish call's answer when its arguments hold one, else the arguments as they are. */
function answerText(finalAnswer: string): string {
  try {
    const parsed = JSON.parse(finalAnswer) as { final_answer?: unknown };
    if (typeof parsed?.final_answer === 'string') return parsed.final_answer;
  } catch {
    // Not JSON: shown as it is.
  }
  return finalAnswer;
}

const BEFORE_JUDGING = {
  'no-finish': 'its last step is not a Finish call',
  'empty-final-answer': 'its final answer is empty',
  'give-up-and-restart': 'it gave up and restarted',
} as const;

interface Round {
  readonly answer: AnswerStatus;
  readonly reason: string | null;
  readonly task: TaskStatus | null;
}

/**
 * StableToolBench's judge as a scorer: the thread becomes the benchmark's converted answer
 * (`toConvertedAnswer`, as the ToolBench export writes it), and `llm` is asked, `rounds` times,
 * whether the answer solved the query (Solved / Unsolved / Unsure) and, for rounds not Solved,
 * whether the query was solvable with the tools given. An answer whose last step is not a Finish
 * call, or whose final answer is empty or gives up, is Unsolved in every round without asking,
 * as the benchmark's evaluator has it. Every verdict is kept in `details` (`JudgeDetails`), from
 * which `toolBenchPassRate` computes the benchmark's figures for the run. The item's own score
 * is the majority verdict (`majorityScore`).
 */
export function toolBenchJudge(options: ToolBenchJudgeOptions): Scorer {
  const name = options?.name ?? 'toolbench-judge';
  if (typeof options?.llm?.generate !== 'function')
    throw invalidOption('toolBenchJudge.llm', 'must be an LLMClient');
  const rounds = options.rounds ?? 3;
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 100)
    throw invalidOption(
      'toolBenchJudge.rounds',
      `must be a whole number from 1 to 100, got ${String(rounds)}`,
    );
  const queryOf = options.query ?? defaultQuery;
  const judgeTask = options.judgeTask ?? true;

  const judgeRound = async (
    input: ScorerInput,
    before: ReturnType<typeof unsolvedBeforeJudging>,
    query: string,
    steps: string,
    finalAnswer: string,
    tools: readonly ToolSpec[],
  ): Promise<Round> => {
    let answer: AnswerStatus = 'Unsolved';
    let reason: string | null = null;
    if (before === undefined) {
      const verdict = await askVerdict(options, {
        scorer: name,
        threadId: input.threadId,
        messages: answerPrompt(query, steps, answerText(finalAnswer)),
        shape: ANSWER_SHAPE,
        signal: input.signal,
      });
      answer = verdict.value.verdict as AnswerStatus;
      reason = verdict.value.reason as string;
    }
    let task: TaskStatus | null = null;
    if (judgeTask && answer !== 'Solved' && before !== 'no-finish') {
      const verdict = await askVerdict(options, {
        scorer: name,
        threadId: input.threadId,
        messages: taskPrompt(query, tools),
        shape: TASK_SHAPE,
        signal: input.signal,
      });
      task = verdict.value.verdict as TaskStatus;
    }
    return { answer, reason, task };
  };

  return {
    name,
    async score(input): Promise<ScoreValue> {
      const query = queryOf(input.item);
      if (typeof query !== 'string' || query === '')
        throw ScoreError.inputMissing(name, `item "${input.itemId}" has no query to judge against`);
      const tools = input.thread ? threadToolSpecs(input.thread) : [];
      const converted = toConvertedAnswer({ query, tools, messages: input.messages });
      const { answerSteps, finalStep } = passRateSteps(converted);
      const finalAnswer = converted.answer.final_answer;
      const before = unsolvedBeforeJudging({ finalStep, finalAnswer });
      const judged = await Promise.all(
        Array.from({ length: rounds }, () =>
          judgeRound(input, before, query, answerSteps, finalAnswer, tools),
        ),
      );
      const answerStatus = judged.map((round) => round.answer);
      const details: JudgeDetails = {
        query,
        finalAnswer,
        finalStep,
        ...(before === undefined ? {} : { unsolvedBeforeJudging: before }),
        answerStatus,
        ...(judgeTask ? { taskStatus: judged.map((round) => round.task) } : {}),
        reasons: judged.map((round) => round.reason),
      };
      const { score, verdict } = majorityScore(answerStatus);
      const counts = ['Solved', 'Unsolved', 'Unsure']
        .map((status) => [status, answerStatus.filter((s) => s === status).length] as const)
        .filter(([, count]) => count > 0)
        .map(([status, count]) => `${count} ${status}`)
        .join(', ');
      const reason =
        before !== undefined
          ? `Unsolved without judging: ${BEFORE_JUDGING[before]}`
          : verdict === 'tie'
            ? `no majority over ${rounds} judgements (${counts})`
            : `${verdict} by ${rounds === 1 ? 'the judge' : `majority of ${rounds} judgements`} (${counts})`;
      return { score, reason, details };
    },
  };
}
