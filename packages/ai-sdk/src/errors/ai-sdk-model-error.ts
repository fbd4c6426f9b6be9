import { SkeinError } from '@skein/spec';

/**
 * - `UNSUPPORTED_MODEL`: `fromLanguageModel` was given something that is not an AI SDK language
 *   model of a specification this package speaks (`supported`; `got` is what it found).
 */
export type AiSdkModelErrorCode = 'UNSUPPORTED_MODEL';

/** What an AiSdkModelError can say. */
export interface AiSdkModelErrorFacts {
  /** The `specificationVersion` found (or a description of what was given instead). */
  readonly got: string;
  /** The specification versions this package accepts. */
  readonly supported: readonly string[];
}

/** A model object this package cannot use. Bad input: never retryable. */
export class AiSdkModelError<
  Code extends AiSdkModelErrorCode = AiSdkModelErrorCode,
> extends SkeinError<Code> {
  static override readonly errorName = 'AiSdkModelError';
  declare readonly got: string;
  declare readonly supported: readonly string[];

  constructor(code: Code, message: string, facts: AiSdkModelErrorFacts) {
    super(code, message, { facts });
  }

  static unsupported(got: string, supported: readonly string[]): AiSdkModelError {
    return new AiSdkModelError(
      'UNSUPPORTED_MODEL',
      `fromLanguageModel: ${got} is not a language model this package supports; it takes AI SDK language models of specificationVersion ${supported.map((v) => `'${v}'`).join(' or ')} (the ai 5 and ai 6 lines)`,
      { got, supported },
    );
  }
}
