import type { ToolBenchFunction } from './types.js';

export const FINISH_FUNCTION_NAME = 'Finish';

const RETURN_TYPE = {
  type: 'string',
  enum: ['give_answer', 'give_up_and_restart'],
} as const;
const FINAL_ANSWER = {
  type: 'string',
  description:
    'The final answer you want to give the user. You should have this field if "return_type"=="give_answer"',
} as const;

/** `Finish` as StableToolBench offers it (rapidapi.py L95-117); it ends every function list. */
export const FINISH_FUNCTION: ToolBenchFunction = {
  name: FINISH_FUNCTION_NAME,
  description:
    'If you believe that you have obtained a result that can answer the task, please call this function to provide the final answer. Alternatively, if you recognize that you are unable to proceed with the task in the current state, call this function to restart. Remember: you must ALWAYS call this function at the end of your attempt, and the only part that will be shown to the user is the final answer, so it should contain sufficient information.',
  parameters: {
    type: 'object',
    properties: { return_type: RETURN_TYPE, final_answer: FINAL_ANSWER },
    required: ['return_type'],
  },
};

/** `Finish` as the original ToolBench wrote it (TB rapidapi.py L93-112): ToolLLaMA's training data. */
export const TOOLBENCH_FINISH_FUNCTION: ToolBenchFunction = {
  name: FINISH_FUNCTION_NAME,
  description:
    "If you think you get the result which can answer the task, call this function to give the final answer. Or, if you think you can't handle the task from this status, call this function to restart. Remember: you should ALWAYS call this function at the end of your try, and the final answer is the ONLY part that will be showed to user, so final answer should contain enough information.",
  parameters: {
    type: 'object',
    properties: { return_type: RETURN_TYPE, final_answer: FINAL_ANSWER },
    required: ['return_type'],
  },
};
