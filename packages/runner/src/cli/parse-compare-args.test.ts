import { InvalidArgumentError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { parseCompareArgs } from './parse-compare-args.js';

function refusal(argv: string[]): InvalidArgumentError {
  try {
    parseCompareArgs(argv);
  } catch (error) {
    expect(InvalidArgumentError.isInstance(error), String(error)).toBe(true);
    return error as InvalidArgumentError;
  }
  throw new Error(`${argv.join(' ')} was accepted`);
}

describe('parseCompareArgs', () => {
  it('takes two run folders and the flags', () => {
    expect(parseCompareArgs(['compare', 'runs/a', 'runs/b'])).toEqual({
      runA: 'runs/a',
      runB: 'runs/b',
      json: false,
      html: false,
    });
    expect(
      parseCompareArgs(['compare', 'a', 'b', '--json', '--seed', '0', '--resamples', '500']),
    ).toEqual({ runA: 'a', runB: 'b', json: true, html: false, seed: 0, resamples: 500 });
    expect(
      parseCompareArgs(['compare', 'a', 'b', '--html', '--inspector', 'http://127.0.0.1:4319/']),
    ).toEqual({
      runA: 'a',
      runB: 'b',
      json: false,
      html: true,
      inspectorUrl: 'http://127.0.0.1:4319/',
    });
    expect(parseCompareArgs(['compare', '--help'])).toBe('help');
  });

  it.each([
    [['compare', 'a'], '<run B>'],
    [['compare', 'a', 'b', 'c'], 'arguments'],
    [['compare', 'a', 'b', '--seed', '-1'], 'arguments'],
    [['compare', 'a', 'b', '--seed', '1.5'], '--seed'],
    [['compare', 'a', 'b', '--seed', '4294967296'], '--seed'],
    [['compare', 'a', 'b', '--resamples', '0'], '--resamples'],
    [['compare', 'a', 'b', '--resamples', '1e4'], '--resamples'],
    [['compare', 'a', 'b', '--resamples', '1000001'], '--resamples'],
    [['compare', 'a', 'b', '--concurrency', '2'], 'arguments'],
    [['compare', 'a', 'b', '--html', '--inspector', 'javascript:alert(1)'], '--inspector'],
    [['compare', 'a', 'b', '--inspector', 'http://127.0.0.1:4319/'], '--inspector'],
  ])('refuses %j, naming %s', (argv, argument) => {
    expect(refusal(argv).argument).toBe(argument);
  });
});
