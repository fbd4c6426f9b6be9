import { InvalidArgumentError, type MediaPart } from '@skein/spec';

/**
 * What kind of rule a part broke on the Chat Completions wire (`details.kind`), beside the
 * `ContentProblemKind`s of `checkContent`, which the mappers report unchanged:
 * - `media-type`: a type the wire cannot carry in that place (audio other than wav or mp3);
 * - `needs-bytes`: audio or a file by http(s) URL with no `fetcher`: the wire takes only bytes;
 * - `ref`: a part by `ref` with no `resolveRef`, or one whose bytes do not match the ref;
 * - `fetcher`: a fetcher that answered something other than `{ bytes, mediaType }`;
 * - `role`: a media part where the role takes only text (an assistant or system message).
 */
export type ChatPartProblemKind = 'media-type' | 'needs-bytes' | 'ref' | 'fetcher' | 'role';

/**
 * `InvalidArgumentError` for the part at `path` (`messages[2].content[1]`), shaped as
 * `checkContent`'s: the argument is the part, `details` say its index, type, field and kind.
 */
export function partError(
  path: string,
  index: number,
  part: MediaPart,
  kind: ChatPartProblemKind,
  problem: string,
  field?: string,
): InvalidArgumentError {
  return new InvalidArgumentError(path, `${path} (${part.type} part): ${problem}`, {
    index,
    partType: part.type,
    ...(field === undefined ? {} : { field }),
    kind,
    problem,
  });
}
