import { ProviderError } from '@skein/spec';

/**
 * The codes of the `ProviderError`s this package throws (the class is `@skein/spec`'s):
 *
 * - `TOOLBENCH_SERVER_UNREACHABLE`: the virtual-API server could not be reached at all (refused
 *   connection, DNS failure, …); `url`. The reference crashes here; a Skein tool throws this
 *   instead, which the engine turns into an error tool message.
 * - `TOOLBENCH_INVALID_COMPLETION`: the `complete` function given to `createReActLLMClient`
 *   returned something that is not text; `problem` says what, in words.
 */
export type ToolBenchProviderErrorCode =
  | 'TOOLBENCH_SERVER_UNREACHABLE'
  | 'TOOLBENCH_INVALID_COMPLETION';

/** The facts of each code: fields of the error, and in `details`. */
export interface ToolBenchProviderErrorFacts {
  readonly TOOLBENCH_SERVER_UNREACHABLE: { readonly url: string };
  readonly TOOLBENCH_INVALID_COMPLETION: { readonly problem: string };
}

/** A `ProviderError` of this package with `code` `C`, and the facts of that code as fields. */
export type ToolBenchProviderError<
  C extends ToolBenchProviderErrorCode = ToolBenchProviderErrorCode,
> = C extends ToolBenchProviderErrorCode
  ? ProviderError<C> & ToolBenchProviderErrorFacts[C]
  : never;

/**
 * True when `value` is a `ProviderError` with `code` (either code of this package when none is
 * given), narrowing it so the facts of the code read as typed fields.
 */
export function isToolBenchProviderError<
  C extends ToolBenchProviderErrorCode = ToolBenchProviderErrorCode,
>(value: unknown, code?: C): value is ToolBenchProviderError<C> {
  return (
    ProviderError.isInstance(value) &&
    (code === undefined
      ? value.code === 'TOOLBENCH_SERVER_UNREACHABLE' ||
        value.code === 'TOOLBENCH_INVALID_COMPLETION'
      : value.code === code)
  );
}

/** `TOOLBENCH_SERVER_UNREACHABLE`: `cause` is what the fetch threw. Not retryable. */
export function serverUnreachable(
  url: string,
  cause: unknown,
): ToolBenchProviderError<'TOOLBENCH_SERVER_UNREACHABLE'> {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new ProviderError(
    'TOOLBENCH_SERVER_UNREACHABLE',
    `Cannot reach the ToolBench server at ${url}: ${reason}`,
    { cause, facts: { url } },
  ) as ToolBenchProviderError<'TOOLBENCH_SERVER_UNREACHABLE'>;
}

/** `TOOLBENCH_INVALID_COMPLETION`: `problem` is what the function returned instead, in words. */
export function invalidCompletion(
  problem: string,
): ToolBenchProviderError<'TOOLBENCH_INVALID_COMPLETION'> {
  return new ProviderError(
    'TOOLBENCH_INVALID_COMPLETION',
    `The completion function returned ${problem}; expected a string or an async iterable of strings`,
    { facts: { problem } },
  ) as ToolBenchProviderError<'TOOLBENCH_INVALID_COMPLETION'>;
}
