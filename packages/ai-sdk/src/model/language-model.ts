import { AiSdkModelError } from '../errors/ai-sdk-model-error.js';

/** The AI SDK model specifications this package speaks: `v2` (ai 5) and `v3` (ai 6). */
export const SUPPORTED_SPECIFICATIONS = ['v2', 'v3'] as const;

export type SupportedSpecification = (typeof SUPPORTED_SPECIFICATIONS)[number];

/**
 * What this package needs of an AI SDK language model, written structurally so that a model built
 * against any copy of `@ai-sdk/provider` (2.x or 3.x) fits and this package imports none at run
 * time. `LanguageModelV2` and `LanguageModelV3` objects are both assignable to it.
 */
export interface AiSdkLanguageModel {
  readonly specificationVersion: string;
  readonly provider: string;
  readonly modelId: string;
  // A method, not a property: the parameter is checked bivariantly, so a model whose options type
  // is the full `LanguageModelV3CallOptions` is accepted.
  doStream(options: AiSdkCallOptions): PromiseLike<{ readonly stream: ReadableStream<unknown> }>;
}

/** The call options this package sends; the same shape for `v2` and `v3` models. */
export interface AiSdkCallOptions {
  readonly prompt: readonly unknown[];
  readonly tools?: readonly unknown[];
  readonly toolChoice?: unknown;
  readonly temperature?: number;
  readonly maxOutputTokens?: number;
  readonly stopSequences?: string[];
  readonly responseFormat?: unknown;
  readonly abortSignal?: AbortSignal;
  readonly providerOptions?: Readonly<Record<string, unknown>>;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object' && typeof value !== 'function') return `a ${typeof value}`;
  const version = (value as { specificationVersion?: unknown }).specificationVersion;
  if (version === undefined) return 'an object without specificationVersion';
  return `a model of specificationVersion ${JSON.stringify(version) ?? String(version)}`;
}

/**
 * `model` with its specification, checked by shape (`specificationVersion`, `doStream`), never by
 * class: a user's provider package need not share our copy of `@ai-sdk/provider`. Anything else
 * (a `v4` model, a provider function instead of a model, a string id) is `UNSUPPORTED_MODEL`.
 */
export function checkLanguageModel(model: unknown): {
  readonly model: AiSdkLanguageModel;
  readonly specification: SupportedSpecification;
} {
  const candidate = model as Partial<AiSdkLanguageModel> | null | undefined;
  const version = candidate?.specificationVersion;
  const supported = SUPPORTED_SPECIFICATIONS as readonly string[];
  if (
    typeof version !== 'string' ||
    !supported.includes(version) ||
    typeof candidate?.doStream !== 'function'
  )
    throw AiSdkModelError.unsupported(
      typeof version === 'string' && supported.includes(version)
        ? `a model of specificationVersion '${version}' without doStream`
        : describe(model),
      SUPPORTED_SPECIFICATIONS,
    );
  return {
    model: candidate as AiSdkLanguageModel,
    specification: version as SupportedSpecification,
  };
}
