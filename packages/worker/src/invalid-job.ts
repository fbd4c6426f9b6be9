import { InvalidArgumentError } from '@skein/spec';

/**
 * Why a job payload can never run: `argument` names the field at fault (`message.content[1]`),
 * and the message says it is a job's, so a failed job in the queue reads as what it is.
 */
export function invalidJob(
  argument: string,
  problem: string,
  details: Record<string, unknown> = {},
): InvalidArgumentError {
  return new InvalidArgumentError(argument, `Invalid Skein job: ${argument}: ${problem}`, details);
}
