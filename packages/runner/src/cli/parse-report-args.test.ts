import { InvalidArgumentError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { parseReportArgs } from './parse-report-args.js';

function refusal(argv: string[]): InvalidArgumentError {
  try {
    parseReportArgs(argv);
  } catch (error) {
    expect(InvalidArgumentError.isInstance(error), String(error)).toBe(true);
    return error as InvalidArgumentError;
  }
  throw new Error(`${argv.join(' ')} was accepted`);
}

describe('parseReportArgs', () => {
  it('takes a run folder and the flags', () => {
    expect(parseReportArgs(['report', 'runs/b'])).toEqual({ run: 'runs/b' });
    expect(
      parseReportArgs([
        'report',
        'runs/b',
        '--compare',
        'runs/a',
        '--inspector',
        'http://127.0.0.1:4319/',
        '--seed',
        '3',
        '--resamples',
        '500',
      ]),
    ).toEqual({
      run: 'runs/b',
      compare: 'runs/a',
      inspectorUrl: 'http://127.0.0.1:4319/',
      seed: 3,
      resamples: 500,
    });
    expect(parseReportArgs(['report', '-h'])).toBe('help');
  });

  it.each([
    [['report'], '<run folder>'],
    [['report', 'a', 'b'], 'arguments'],
    [['report', 'a', '--compare'], 'arguments'],
    [['report', 'a', '--compare', ''], '--compare'],
    [['report', 'a', '--inspector', 'javascript:alert(1)'], '--inspector'],
    [['report', 'a', '--inspector', '127.0.0.1:4319'], '--inspector'],
    [['report', 'a', '--seed', 'x'], '--seed'],
    [['report', 'a', '--resamples', '0'], '--resamples'],
    [['report', 'a', '--json'], 'arguments'],
  ])('refuses %j, naming %s', (argv, argument) => {
    expect(refusal(argv).argument).toBe(argument);
  });
});
