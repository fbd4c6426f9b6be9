import { InvalidArgumentError } from '@skein/spec';

/**
 * An option, quirk or scripted turn of `startOpenAICompatibleServer` that cannot work: an unknown
 * field or a wrong type. Its `argument` is the path (`script[2].content`); `details` has the
 * `problem` and, for an unknown field, the fields `accepted` where it was found.
 */
export function invalidServerOption(
  option: string,
  problem: string,
  accepted?: readonly string[],
): InvalidArgumentError {
  const list = accepted === undefined ? '' : ` (accepted: ${accepted.join(', ')})`;
  return new InvalidArgumentError(
    option,
    `Invalid OpenAI-compatible server option ${option}: ${problem}${list}`,
    { problem, ...(accepted === undefined ? {} : { accepted }) },
  );
}
