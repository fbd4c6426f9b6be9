import { describe, expect, it } from 'vitest';
import { isPassed } from './is-passed.js';

describe('isPassed (rtl.py is_passed)', () => {
  it.each([
    ['Solved', 'Solvable', 'Passed'],
    ['Solved', 'Unsure', 'Passed'],
    ['Solved', 'Unsolvable', 'Passed'],
    ['Solved', undefined, 'Passed'],
    ['Unsolved', 'Solvable', 'Failed'],
    ['Unsolved', 'Unsure', 'Unsure'],
    ['Unsolved', 'Unsolvable', 'Passed'],
    ['Unsure', 'Solvable', 'Unsure'],
    ['Unsure', 'Unsure', 'Unsure'],
    ['Unsure', 'Unsolvable', 'Passed'],
    ['Unsolved', undefined, undefined],
    ['Unsure', undefined, undefined],
  ] as const)('answer %s, task %s → %s', (answer, task, expected) => {
    expect(isPassed(answer, task)).toBe(expected);
  });
});
