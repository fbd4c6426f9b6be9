// The StableToolBench judge's questions, in Skein's own words: whether an answer solved its
// query (Solved / Unsolved / Unsure), and whether the query could be solved with the tools given
// (Solvable / Unsolvable / Unsure), the two verdicts the benchmark's pass rates are made of.

import type { LLMMessage } from '@skein/spec';
import type { VerdictShape } from './parse-verdict.js';

const ANSWER_VERDICTS = ['Solved', 'Unsolved', 'Unsure'] as const;
const TASK_VERDICTS = ['Solvable', 'Unsolvable', 'Unsure'] as const;

export const ANSWER_SHAPE: VerdictShape = {
  reason: { type: 'string' },
  verdict: { type: 'enum', values: ANSWER_VERDICTS },
};

export const TASK_SHAPE: VerdictShape = {
  reason: { type: 'string' },
  verdict: { type: 'enum', values: TASK_VERDICTS },
};

/** The longest text of steps a prompt carries; past it, the start is kept and the cut counted. */
const MAX_STEPS = 20_000;

function cut(text: string): string {
  return text.length > MAX_STEPS
    ? `${text.slice(0, MAX_STEPS)}\n[… ${text.length - MAX_STEPS} more characters of steps left out]`
    : text;
}

export function answerPrompt(query: string, steps: string, finalAnswer: string): LLMMessage[] {
  return [
    {
      role: 'system',
      content:
        'You check whether an AI assistant that could call tools fulfilled a user request. ' +
        'You are shown the request, the tool calls it made with what each returned, and its final answer.',
    },
    {
      role: 'user',
      content: [
        `Request:\n${query}`,
        `Tool calls and their results:\n${steps === '' ? '(none)' : cut(steps)}`,
        `Final answer:\n${finalAnswer}`,
        [
          'Give one verdict:',
          '- "Solved": the final answer gives the user what each part of the request asked for, and the tool results back it up.',
          '- "Unsolved": some part of the request goes unanswered, the assistant refused or gave up, or the answer claims what the tool results do not show.',
          '- "Unsure": what you are shown does not let you decide.',
          'Reply with one JSON object and nothing else, your reason first:',
          '{"reason": "<one or two sentences>", "verdict": "Solved" | "Unsolved" | "Unsure"}',
        ].join('\n'),
      ].join('\n\n'),
    },
  ];
}

export function taskPrompt(
  query: string,
  tools: readonly { readonly name: string; readonly description: string }[],
): LLMMessage[] {
  const listed = tools.map((tool) => `- ${tool.name}: ${tool.description}`).join('\n');
  return [
    {
      role: 'system',
      content:
        'You check whether a user request could be fulfilled at all with the tools an AI assistant was given.',
    },
    {
      role: 'user',
      content: [
        `Request:\n${query}`,
        `Tools the assistant had:\n${listed === '' ? '(none)' : listed}`,
        [
          'Give one verdict:',
          '- "Solvable": these tools, used well, could give everything the request asks for.',
          '- "Unsolvable": the request needs something none of these tools can give, or information the request does not contain.',
          '- "Unsure": you cannot tell from what you are shown.',
          'Reply with one JSON object and nothing else, your reason first:',
          '{"reason": "<one or two sentences>", "verdict": "Solvable" | "Unsolvable" | "Unsure"}',
        ].join('\n'),
      ].join('\n\n'),
    },
  ];
}
