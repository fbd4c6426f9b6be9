import { SkeinError } from '@skein/spec';

/**
 * - `REF_UNRESOLVED`: a part holds an attachment `ref` and no `resolveRef` was given, or the
 *   resolver gave back something other than the ref's bytes (not a `Uint8Array`, or not
 *   `ref.size` long).
 * - `PART_UNSUPPORTED`: the shape the part must go into cannot carry it (an http(s) url in a `v2`
 *   model's tool result, which takes inline media only).
 */
export type AiSdkPartErrorCode = 'REF_UNRESOLVED' | 'PART_UNSUPPORTED';

/** What an AiSdkPartError can say. */
export interface AiSdkPartErrorFacts {
  /** The part at fault, as the caller named its content: `messages[2].content[1]`. */
  readonly part: string;
  /** The part's `type`. */
  readonly partType: string;
}

/**
 * A valid part this package cannot hand to the AI SDK as things are set up: the app must give a
 * resolver or a different source, so it is never retryable. (Malformed parts are the
 * `InvalidArgumentError` of `checkContent`.)
 */
export class AiSdkPartError<
  Code extends AiSdkPartErrorCode = AiSdkPartErrorCode,
> extends SkeinError<Code> {
  static override readonly errorName = 'AiSdkPartError';
  declare readonly part: string;
  declare readonly partType: string;

  constructor(code: Code, message: string, facts: AiSdkPartErrorFacts) {
    super(code, message, { facts });
  }
}
