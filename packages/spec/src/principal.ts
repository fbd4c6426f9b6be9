import { InvalidArgumentError } from './errors/invalid-argument-error.js';
import { idProblem } from './thread-id.js';

/**
 * The longest principal, in UTF-16 code units. A principal names who a thread belongs to (a user
 * id, a token's subject, an email address) and is stored with every checkpoint of the thread.
 */
export const MAX_PRINCIPAL_LENGTH = 1024;

/** Why `value` cannot be a principal, or undefined when it can. */
export function principalProblem(value: unknown): string | undefined {
  return idProblem(value, 'a principal', MAX_PRINCIPAL_LENGTH);
}

/**
 * Throws `InvalidArgumentError` (`INVALID_ARGUMENT`) unless `value` can be a principal: a
 * non-empty string of at most 1,024 characters, well-formed Unicode without control characters,
 * so every store keeps it exactly and two principals compare equal only when they are.
 */
export function checkPrincipal(value: unknown, argument = 'principal'): string {
  const problem = principalProblem(value);
  if (problem) throw new InvalidArgumentError(argument, problem);
  return value as string;
}
