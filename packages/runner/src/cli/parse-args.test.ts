import { InvalidArgumentError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './parse-args.js';

const base = ['run', 'wf.ts', '--input', 'data.jsonl', '--out', 'runs/x'];

function refusal(flags: string[]): InvalidArgumentError {
  try {
    parseCliArgs([...base, ...flags]);
  } catch (error) {
    expect(InvalidArgumentError.isInstance(error), String(error)).toBe(true);
    expect((error as InvalidArgumentError).code).toBe('INVALID_ARGUMENT');
    return error as InvalidArgumentError;
  }
  throw new Error(`${flags.join(' ')} was accepted`);
}

describe('parseCliArgs', () => {
  it.each([
    ['--max-steps', '0.5'],
    ['--max-steps', '1e300'],
    ['--concurrency', '2.5'],
    ['--concurrency', '0x10'],
  ])('refuses %s %s: a count must be a positive integer', (flag, value) => {
    const error = refusal([flag, value]);
    expect(error.argument).toBe(flag);
    expect(error.message).toContain(`"${value}"`);
  });

  it.each([
    ['--rpm', '1e-7'],
    ['--tpm', '1e-9'],
  ])('refuses %s %s: the wait for one request would not fit a timer', (flag, value) => {
    const error = refusal([flag, value]);
    expect(error.argument).toBe(flag);
    expect(error.message).toContain(value);
  });

  it('takes --score and its time limit, which needs --score', () => {
    expect(parseCliArgs(base)).toMatchObject({ score: false });
    expect(parseCliArgs([...base, '--score', '--score-timeout', '5000'])).toMatchObject({
      score: true,
      scoreTimeoutMs: 5000,
    });
    expect(refusal(['--score-timeout', '5000']).argument).toBe('--score-timeout');
    expect(refusal(['--score', '--score-timeout', '0']).argument).toBe('--score-timeout');
    expect(refusal(['--score', '--score-timeout', '3000000000']).message).toContain('at most');
  });

  it('takes integer counts and fractional budgets', () => {
    expect(
      parseCliArgs([...base, '--max-steps', '20', '--concurrency', '4', '--rpm', '0.5']),
    ).toMatchObject({ maxSteps: 20, concurrency: 4, rpm: 0.5 });
  });
});
