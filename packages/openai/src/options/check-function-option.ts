import { InvalidArgumentError } from '@skein/spec';

/**
 * Throws `InvalidArgumentError` naming the option unless `value` is absent or a function: a
 * wrong value would otherwise surface only when the first part that needs it is sent.
 */
export function checkFunctionOption(name: string, value: unknown): void {
  if (value === undefined || typeof value === 'function') return;
  throw new InvalidArgumentError(
    name,
    `${name} must be a function, got ${value === null ? 'null' : typeof value}`,
  );
}
