import { SkeinError } from '@skein/spec';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as api from '../index.js';
import { invalidOption } from './invalid-option.js';
import { rateLimited } from './rate-limited.js';

type ErrorClass = (abstract new (
  ...args: never[]
) => SkeinError) & {
  readonly errorName: string;
  isInstance(value: unknown): boolean;
};

// One instance per code: typed so a code added to the union and missing here does not compile.
const runnerErrors: { [C in api.RunnerErrorCode]: api.RunnerError<C> } = {
  RUN_FOLDER_INVALID: api.RunnerError.runFolder('runs/x/run.json', 'bad'),
  OUTPUT_NOT_EMPTY: api.RunnerError.runFolder(
    'runs/x',
    'holds files',
    undefined,
    'OUTPUT_NOT_EMPTY',
  ),
  OUTPUT_NOT_OURS: api.RunnerError.runFolder(
    'runs/x/run.json',
    'another run',
    undefined,
    'OUTPUT_NOT_OURS',
  ),
  INPUT_LINE_MALFORMED: api.RunnerError.inputLine('data.jsonl', 3, 'not JSON'),
  ITEM_ID_INVALID: api.RunnerError.itemId('item 2', 'no id'),
  WORKFLOW_MODULE_INVALID: api.RunnerError.workflowModule('wf.ts', 'bad'),
  WORKFLOW_MODULE_FAILED: api.RunnerError.workflowModule(
    'wf.ts',
    'threw',
    new Error('x'),
    'WORKFLOW_MODULE_FAILED',
  ),
  EXPORT_PART_UNSUPPORTED: api.RunnerError.exportPart('run:1', 2, 0, 'audio'),
  SCORES_LINE_INVALID: api.RunnerError.scoresLine('runs/a/scores.jsonl', 4, 'not JSON'),
};

// One instance per code of ScoreError, typed alike.
const scoreErrors: { [C in api.ScoreErrorCode]: api.ScoreError<C> } = {
  SCORER_FAILED: new api.ScoreError('SCORER_FAILED', 'Scorer s threw: x', {
    scorer: 's',
    itemId: 'q1',
  }),
  SCORER_TIMEOUT: new api.ScoreError(
    'SCORER_TIMEOUT',
    'Scorer s gave no score within 10 ms',
    { scorer: 's', itemId: 'q1', timeoutMs: 10 },
    { retryable: true },
  ),
  SCORE_INVALID: new api.ScoreError('SCORE_INVALID', 'Scorer s: bad', { scorer: 's' }),
  SCORE_INPUT_MISSING: api.ScoreError.inputMissing('s', 'no expected value'),
  VERDICT_INVALID: api.ScoreError.verdict('judge', 'not JSON', 'Solved!'),
};

// Every error class this package exports, with each code it throws.
const table: [ErrorClass, SkeinError, string][] = [
  [api.InvalidArgumentError, invalidOption('concurrency', 'bad'), 'INVALID_ARGUMENT'],
  [api.ProviderError, rateLimited('m', 3, new Error('429')), 'RATE_LIMITED'],
  ...Object.entries(runnerErrors).map(([code, error]): [ErrorClass, SkeinError, string] => [
    api.RunnerError,
    error,
    code,
  ]),
  ...Object.entries(scoreErrors).map(([code, error]): [ErrorClass, SkeinError, string] => [
    api.ScoreError,
    error,
    code,
  ]),
];

describe('every exported error class', () => {
  it('is in the table', () => {
    const exported = Object.values(api).filter(
      (value) => typeof value === 'function' && value.prototype instanceof SkeinError,
    );
    expect(new Set(exported)).toEqual(new Set(table.map(([type]) => type)));
  });

  it('is RunnerError or ScoreError, besides those of @skein/spec', () => {
    const own = new Set(table.map(([type]) => type));
    own.delete(api.InvalidArgumentError);
    own.delete(api.ProviderError);
    expect([...own].map((type) => type.errorName)).toEqual(['RunnerError', 'ScoreError']);
  });

  it.each(table)(
    '%o has its code %#, and an isInstance that rejects its siblings',
    (type, error, code) => {
      expect(error.code).toBe(code);
      expect(error.code).toMatch(/^[A-Z]+(_[A-Z]+)*$/);
      expect(error.name).toBe(type.errorName);
      for (const [other, instance] of table)
        expect(type.isInstance(instance), `${type.errorName}.isInstance(${other.errorName})`).toBe(
          other === type,
        );
    },
  );

  it('says which is retryable: the rate limit, a scorer out of time, a model answering badly', () => {
    expect(table.filter(([, e]) => e.retryable).map(([, e]) => e.code)).toEqual([
      'RATE_LIMITED',
      'SCORER_TIMEOUT',
      'VERDICT_INVALID',
    ]);
  });

  it('has a literal code type', () => {
    expectTypeOf<api.RunnerError['code']>().toEqualTypeOf<api.RunnerErrorCode>();
    expectTypeOf(runnerErrors.RUN_FOLDER_INVALID.code).toEqualTypeOf<'RUN_FOLDER_INVALID'>();
    expectTypeOf(
      api.RunnerError.runFolder('x', 'y', undefined, 'OUTPUT_NOT_OURS').code,
    ).toEqualTypeOf<'OUTPUT_NOT_OURS'>();
  });
});

describe('the facts of each code', () => {
  it('are typed fields, and in details', () => {
    expect(runnerErrors.OUTPUT_NOT_OURS).toMatchObject({
      path: 'runs/x/run.json',
      message: 'Run folder runs/x/run.json: another run',
      details: { path: 'runs/x/run.json' },
    });
    expect(runnerErrors.INPUT_LINE_MALFORMED).toMatchObject({
      file: 'data.jsonl',
      line: 3,
      message: 'data.jsonl:3: not JSON',
    });
    expect(runnerErrors.ITEM_ID_INVALID.details).toEqual({ where: 'item 2', itemId: undefined });
    expect('itemId' in runnerErrors.ITEM_ID_INVALID).toBe(false);
    expect(runnerErrors.WORKFLOW_MODULE_FAILED).toMatchObject({ module: 'wf.ts' });
    expect((runnerErrors.WORKFLOW_MODULE_FAILED.cause as Error).message).toBe('x');
    expect(runnerErrors.EXPORT_PART_UNSUPPORTED).toMatchObject({
      threadId: 'run:1',
      messageIndex: 2,
      partIndex: 0,
      message: 'Thread run:1, messages[2].content[0]: audio',
      details: { threadId: 'run:1', messageIndex: 2, partIndex: 0 },
    });
    expect(rateLimited('m', 3, undefined)).toMatchObject({
      model: 'm',
      attempts: 3,
      retryable: true,
      message: 'Model m was rate limited (HTTP 429) on 3 attempts in a row',
      details: { model: 'm', attempts: 3 },
    });
    expect(scoreErrors.VERDICT_INVALID).toMatchObject({
      scorer: 'judge',
      answer: 'Solved!',
      message: `Scorer judge: the model's answer is not a verdict: not JSON (answer: "Solved!")`,
      details: { scorer: 'judge', answer: 'Solved!' },
    });
    expect(scoreErrors.SCORER_TIMEOUT).toMatchObject({ timeoutMs: 10, itemId: 'q1' });
    expect(invalidOption('--rpm', 'must be a positive number')).toMatchObject({
      argument: '--rpm',
      message: 'Dataset run option --rpm: must be a positive number',
    });
  });
});
