// The prompt texts of the reference, byte for byte (typos included: the model was trained on them).
// Sources: toolbench/inference/Prompts/ReAct_prompts.py L4-20 and
// toolbench/inference/Downstream_tasks/rapidapi.py L119-135 in StableToolBench; FORMAT.md §2.

/** `FORMAT_INSTRUCTIONS_SYSTEM_FUNCTION`; `{task_description}` is filled by the caller. */
export const TOOLBENCH_SYSTEM_TEMPLATE = `You are AutoGPT, you can use many tools(functions) to do the following task.
First I will give you the task description, and your task start.
At each step, you need to give your thought to analyze the status now and what to do next, with a function call to actually excute your step.
After the call, you will get the call result, and you are now in a new state.
Then you will analyze your status now, then decide what to do next...
After many (Thought-call) pairs, you finally perform the task, then you can give your finial answer.
Remember: 
1.the state change is irreversible, you can't go back to one of the former state, if you want to restart the task, say "I give up and restart".
2.All the thought is short, at most in 5 sentence.
3.You can do more then one trys, so if your plan is to continusly try some conditions, you can do one of the conditions per try.
Let's Begin!
Task description: {task_description}`;

/** `FORMAT_INSTRUCTIONS_USER_FUNCTION`; `{input_description}` is the query. */
export const TOOLBENCH_USER_TEMPLATE = '\n{input_description}\nBegin!\n';

/** The start of the task description, up to the tool list. */
export const TOOLBENCH_TASK_PREAMBLE = `You should use functions to help handle the real time user querys. Remember:
1.ALWAYS call "Finish" function at the end of the task. And the final answer should contain enough information to show to the user,If you can't handle the task, or you find that function calls always fail(the function is not valid now), use function Finish->give_up_and_restart.
2.Do not use origin tool names, use only subfunctions' names.
You have access of the following tools:
`;

/** The sentence `process_system_message` requires, and after which it inserts the format. */
export const TOOLLLAMA_ANCHOR_SENTENCE = 'with a function call to actually excute your step.';

export const TOOLLLAMA_FORMAT_INSERT =
  ' Your output should follow this format:\nThought:\nAction\nAction Input:\n';

export const TOOLLLAMA_FUNCTIONS_PREFIX = '\nSpecifically, you have access to the following APIs: ';
