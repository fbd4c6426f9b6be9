import { SkeinError } from '@skein/spec';

/** An error as one line: its code first, when it has one. */
export function describeError(error: unknown): string {
  const code = SkeinError.isInstance(error) ? `${error.code}: ` : '';
  return `${code}${error instanceof Error ? error.message : String(error)}`;
}
