import { InvalidArgumentError, type MediaPart } from '@skein/spec';

/**
 * Why a media part cannot go into a transcript (`details.kind`):
 * - `part-type`: audio or a file (OpenAI chat fine-tuning takes images only);
 * - `role`: an image outside a user message (fine-tuning takes images in user messages only);
 * - `ref`: an attachment whose bytes were not given, or not the bytes the ref names.
 */
export type TranscriptPartProblemKind = 'part-type' | 'role' | 'ref';

/**
 * `InvalidArgumentError` for part `partIndex` of message `messageIndex`, its argument the part's
 * path (`messages[2].content[1]`) and both indexes in `details`, so a caller exporting many
 * threads can say which thread, message and part without parsing the path.
 */
export function transcriptPartError(
  messageIndex: number,
  partIndex: number,
  part: MediaPart,
  kind: TranscriptPartProblemKind,
  problem: string,
): InvalidArgumentError {
  const path = `messages[${messageIndex}].content[${partIndex}]`;
  return new InvalidArgumentError(path, `${path} (${part.type} part): ${problem}`, {
    messageIndex,
    index: partIndex,
    partType: part.type,
    kind,
    problem,
  });
}
