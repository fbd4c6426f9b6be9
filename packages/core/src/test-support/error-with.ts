import type { SkeinError } from '@skein/spec';

type ErrorClass<T extends SkeinError> = (abstract new (
  ...args: never[]
) => T) & {
  readonly errorName: string;
  isInstance(value: unknown): boolean;
};

/**
 * Matches an error of `type` (by its `isInstance`) carrying `code`, wherever vitest takes an
 * asymmetric matcher: `expect(fn).toThrow(errorWith(ToolError, 'INVALID_TOOL'))`,
 * `rejects.toThrow(…)`, `toEqual(…)`.
 */
export function errorWith<T extends SkeinError>(type: ErrorClass<T>, code: T['code']) {
  return {
    asymmetricMatch: (value: unknown): boolean =>
      type.isInstance(value) && (value as SkeinError).code === code,
    toAsymmetricMatcher: (): string => `${type.errorName} with code ${code}`,
  };
}
