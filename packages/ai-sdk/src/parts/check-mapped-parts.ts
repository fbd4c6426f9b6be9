import {
  type CheckContentOptions,
  type ContentPart,
  contentProblem,
  InvalidArgumentError,
} from '@skein/spec';

/**
 * `checkContent` for parts mapped from another list (a UI message's parts, a model's content),
 * where some items were left out: the error names the item the caller sent, `at[origin[i]]`, not
 * the index in the mapped list. `origin[i]` is the source index of `parts[i]`.
 */
export function checkMappedParts(
  parts: readonly ContentPart[],
  origin: readonly number[],
  at: string,
  options: CheckContentOptions = {},
): readonly ContentPart[] {
  const problem = contentProblem(parts, at, options);
  if (problem === undefined) return parts;
  const { path: _mapped, index, ...details } = problem;
  const source = index === undefined ? undefined : origin[index];
  const path = source === undefined ? at : `${at}[${source}]`;
  const what = problem.partType === undefined ? '' : ` (${problem.partType} part)`;
  throw new InvalidArgumentError(path, `${path}${what}: ${problem.problem}`, {
    ...details,
    ...(source === undefined ? {} : { index: source }),
  });
}
