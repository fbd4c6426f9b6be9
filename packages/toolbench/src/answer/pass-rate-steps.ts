import { pythonRepr } from '../python/python-repr.js';
import type { ConvertedAnswer } from './converted-answer.js';

export interface PassRateSteps {
  /** `"Step n: {python repr}"` per tool node, one per line. */
  readonly answerSteps: string;
  /** `"Final step: {python repr}"` of the last tool node, or empty. */
  readonly finalStep: string;
  /** The evaluator's first check: the last step is a Finish call (else Unsolved without judging). */
  readonly endsWithFinish: boolean;
}

/**
 * What the pass-rate evaluator reads from a converted answer (toolbench/tooleval/utils.py L21-42,
 * eval_pass_rate.py L52): the tool nodes along the first `next` chain rendered as Python reprs.
 */
export function passRateSteps(answer: ConvertedAnswer): PassRateSteps {
  const steps: string[] = [];
  let finalStep = '';
  let node = answer.answer.answer_details[0];
  while (node !== undefined) {
    if (node.role === 'tool' && node.message) {
      const text = pythonRepr(node.message);
      steps.push(`Step ${steps.length + 1}: ${text}`);
      finalStep = `Final step: ${text}`;
    }
    node = node.next[0];
  }
  return {
    answerSteps: steps.join('\n'),
    finalStep,
    endsWithFinish: finalStep.includes("'name': 'Finish'"),
  };
}
