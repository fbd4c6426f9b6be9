import { describe, expect, it } from 'vitest';
import {
  type AnswerFile,
  type ConvertedEntry,
  engineMessages,
  FIXTURES,
  readFixture,
} from '../testing/fixtures.js';
import { toConvertedAnswer } from './converted-answer.js';
import { passRateSteps } from './pass-rate-steps.js';

const converted = readFixture<Record<string, ConvertedEntry>>(FIXTURES.converted);
const passRate = readFixture<Record<string, { answer_steps: string; final_step: string }>>(
  FIXTURES.passRate,
);
const cot = readFixture<AnswerFile>(FIXTURES.cot1073).answer_generation;

describe('toConvertedAnswer', () => {
  it.each(['metadata', 'call'] as const)(
    'reproduces the converted-answer entry of query 1073 from its own raw trajectory (Finish as %s)',
    (finishAs) => {
      const answer = toConvertedAnswer({
        query: cot.query,
        tools: cot.function,
        messages: engineMessages(cot.train_messages.at(-1)!, finishAs),
      });
      expect(JSON.stringify(answer)).toBe(JSON.stringify(converted['1073']));
    },
  );

  it('appends Finish to the available tools when the thread offered the API functions only', () => {
    const answer = toConvertedAnswer({
      query: cot.query,
      tools: cot.function.slice(0, -1),
      messages: engineMessages(cot.train_messages.at(-1)!, 'metadata'),
    });
    expect(answer.available_tools).toEqual(converted['1073']?.available_tools);
  });

  it('leaves the final answer empty for a thread that gave up or never finished', () => {
    const gaveUp = toConvertedAnswer({
      query: 'q',
      tools: [],
      messages: [
        { role: 'system', content: 's' },
        { role: 'user', content: 'u' },
        {
          role: 'assistant',
          content: '',
          metadata: {
            toolbench: {
              raw: 'x',
              mode: 'tolerant',
              thought: '',
              action: 'Finish',
              actionInput: '{"return_type": "give_up_and_restart"}',
              finish: {
                returnType: 'give_up_and_restart',
                arguments: '{"return_type": "give_up_and_restart"}',
              },
            },
          },
        },
      ],
    });
    expect(gaveUp.answer.final_answer).toBe('');
    expect(gaveUp.answer.total_steps).toBe(3);
    expect(passRateSteps(gaveUp).endsWithFinish).toBe(true);
    const unfinished = toConvertedAnswer({
      query: 'q',
      tools: [],
      messages: [],
      method: 'DFS_woFilter_w2',
    });
    expect(unfinished.answer).toEqual({
      method: 'DFS_woFilter_w2',
      total_steps: 2,
      final_answer: '',
      answer_details: [
        { role: 'system', message: '', next: [{ role: 'user', message: '', next: [] }] },
      ],
    });
  });

  it('records an error call with its own error text (not the engine wording) and skips unanswered calls', () => {
    const answer = toConvertedAnswer({
      query: 'q',
      tools: [],
      messages: [
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            { id: 'a', name: 'invalid_hallucination_function_name', arguments: '{}', error: 'E' },
          ],
        },
        { role: 'tool', toolCallId: 'a', content: 'Error [TOOL_CALL_INVALID]: E' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'b', name: 'f', arguments: '{}' }] },
      ],
    });
    expect(passRateSteps(answer).answerSteps).toBe(
      "Step 1: {'name': 'invalid_hallucination_function_name', 'arguments': '{}', 'response': 'E'}",
    );
  });

  it('refuses input that is not a thread', () => {
    expect(() =>
      toConvertedAnswer({ query: 'q', tools: [], messages: [{ role: 'user' } as never] }),
    ).toThrowError(
      expect.objectContaining({ code: 'TOOLBENCH_INVALID_ANSWER_INPUT', path: 'messages[0]' }),
    );
  });
});

describe('passRateSteps', () => {
  it.each(['588', '608', '1073'])(
    'renders query %s exactly as the recorded pass-rate result (Python repr)',
    (qid) => {
      const steps = passRateSteps(converted[qid] as never);
      expect(steps.answerSteps).toBe(passRate[qid]?.answer_steps);
      expect(steps.finalStep).toBe(passRate[qid]?.final_step);
    },
  );

  it('says whether the last step is a Finish (the evaluator marks the rest Unsolved)', () => {
    expect(passRateSteps(converted['588'] as never).endsWithFinish).toBe(false);
    expect(passRateSteps(converted['1073'] as never).endsWithFinish).toBe(true);
  });
});
