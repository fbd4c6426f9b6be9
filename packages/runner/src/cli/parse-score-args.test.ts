import { InvalidArgumentError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { parseScoreArgs } from './parse-score-args.js';

const base = ['score', 'runs/x', '--module', 'wf.ts', '--input', 'data.jsonl'];

describe('parseScoreArgs', () => {
  it('takes the run folder, the module, the input and the options', () => {
    expect(parseScoreArgs(base)).toEqual({
      folder: 'runs/x',
      module: 'wf.ts',
      input: 'data.jsonl',
    });
    expect(
      parseScoreArgs([
        ...base,
        '--id-field',
        'id',
        '--run-id',
        'r1',
        '--concurrency',
        '4',
        '--score-timeout',
        '1000',
      ]),
    ).toEqual({
      folder: 'runs/x',
      module: 'wf.ts',
      input: 'data.jsonl',
      idField: 'id',
      runId: 'r1',
      concurrency: 4,
      scoreTimeoutMs: 1000,
    });
    expect(parseScoreArgs(['score', '--help'])).toBe('help');
  });

  it.each([
    [['score', '--module', 'wf.ts', '--input', 'd.jsonl'], '<run folder>'],
    [['score', 'runs/x', '--input', 'd.jsonl'], '--module'],
    [['score', 'runs/x', '--module', 'wf.ts'], '--input'],
    [[...base, 'extra'], 'arguments'],
    [[...base, '--concurrency', '0'], '--concurrency'],
    [[...base, '--score-timeout', '1.5'], '--score-timeout'],
    [[...base, '--rpm', '5'], 'arguments'],
  ])('refuses %j, naming %s', (argv, argument) => {
    let error: unknown;
    try {
      parseScoreArgs(argv);
    } catch (thrown) {
      error = thrown;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as InvalidArgumentError).argument).toBe(argument);
  });
});
