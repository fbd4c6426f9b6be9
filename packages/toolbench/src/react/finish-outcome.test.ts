import { describe, expect, it } from 'vitest';
import {
  FINISH_REPLIES,
  finishOutcomeFromArguments,
  finishOutcomeReference,
} from './finish-outcome.js';

describe('finishOutcomeReference (rapidapi.py L314-341)', () => {
  it('gives the final answer for give_answer with final_answer', () => {
    expect(
      finishOutcomeReference('{\n  "return_type": "give_answer",\n  "final_answer": "It is 4."\n}'),
    ).toEqual({
      kind: 'answer',
      returnType: 'give_answer',
      finalAnswer: 'It is 4.',
      reply: '{"response":"successfully giving the final answer."}',
      status: 3,
    });
  });

  it('accepts raw newlines inside strings (json.loads strict=False)', () => {
    expect(
      finishOutcomeReference('{"return_type": "give_answer", "final_answer": "a\nb"}'),
    ).toMatchObject({
      kind: 'answer',
      finalAnswer: 'a\nb',
    });
  });

  it('gives up with or without an answer', () => {
    expect(finishOutcomeReference('{"return_type": "give_up_and_restart"}')).toMatchObject({
      kind: 'give-up',
      finalAnswer: undefined,
      reply: FINISH_REPLIES.giveUp,
      status: 4,
    });
  });

  it('answers the three kinds of bad input with the reference replies (not JSON) and status 2', () => {
    expect(finishOutcomeReference('{"final_answer": "x"}')).toMatchObject({
      kind: 'invalid',
      problem: 'missing-return-type',
      reply: '{error:"must have "return_type""}',
      status: 2,
    });
    expect(finishOutcomeReference('{"return_type": "give_answer"}')).toMatchObject({
      problem: 'missing-final-answer',
      reply: '{error:"must have "final_answer""}',
    });
    expect(finishOutcomeReference('{"return_type": "done"}')).toMatchObject({
      problem: 'invalid-return-type',
      reply: '{error:""return_type" is not a valid choice"}',
    });
  });

  it('falls back to substrings for unparsable input: the answer keeps everything after the marker', () => {
    const text = '{\n"return_type": "give_answer",\n"final_answer": "The answer is "4".\n}';
    expect(finishOutcomeReference(text)).toMatchObject({
      kind: 'answer',
      finalAnswer: 'The answer is "4".\n}',
    });
    expect(finishOutcomeReference('{"return_type": "give_up_and_restart" oops')).toMatchObject({
      kind: 'give-up',
    });
    expect(finishOutcomeReference('{"return_type": "maybe", "x": oops')).toMatchObject({
      kind: 'invalid',
      problem: 'invalid-return-type',
    });
  });

  it('fails the fallback for compact JSON that does not parse (no space after the colon)', () => {
    expect(
      finishOutcomeReference('{"return_type":"give_answer","final_answer":"x" oops}'),
    ).toMatchObject({
      problem: 'missing-return-type',
    });
  });

  it('treats a JSON value that is not an object as having no return_type', () => {
    expect(finishOutcomeReference('["give_answer"]')).toMatchObject({
      problem: 'missing-return-type',
    });
  });
});

describe('finishOutcomeFromArguments', () => {
  it('applies the same rules to parsed arguments and turns a non-string answer into text', () => {
    expect(
      finishOutcomeFromArguments({ return_type: 'give_answer', final_answer: { n: 1 } }),
    ).toMatchObject({
      kind: 'answer',
      finalAnswer: '{"n":1}',
    });
    expect(
      finishOutcomeFromArguments({ return_type: 'give_answer', final_answer: null }),
    ).toMatchObject({ finalAnswer: '' });
    expect(finishOutcomeFromArguments({ return_type: 1 })).toMatchObject({
      problem: 'invalid-return-type',
    });
  });
});
