import type { LLMMessage } from '@skein/spec';
import type { FinishReturnType } from '../react/finish-outcome.js';
import type { ArgumentsParsedBy } from '../react/lenient-json.js';
import type { ReActWarning } from '../react/tolerant-parser.js';

/** The key under which ReAct details sit in an assistant message's `metadata`. */
export const REACT_METADATA_KEY = 'toolbench';

/** The name the reference stores for a call whose action matched no function (single_chain.py L183-185). */
export const INVALID_FUNCTION_NAME = 'invalid_hallucination_function_name';

/** What `createReActLLMClient` records about each reply, under `metadata.toolbench`. */
export interface ReActMessageMetadata {
  /** The model's text as it goes back into later prompts (byte-exact history). */
  readonly raw: string;
  readonly mode: 'reference' | 'tolerant';
  readonly thought: string;
  /** The action as the parser read it (untrimmed in reference mode). */
  readonly action: string;
  /** The Action Input text as the parser read it. */
  readonly actionInput: string;
  readonly parsedBy?: ArgumentsParsedBy;
  readonly warnings?: readonly ReActWarning[];
  /** How the action was matched to a function, when it was. */
  readonly match?: { readonly kind: 'exact' | 'suffix'; readonly candidates: readonly string[] };
  /** Set on the final message of a `Finish` call. */
  readonly finish?: {
    readonly returnType: FinishReturnType;
    /** The raw Finish arguments: the benchmark stores these as the final answer. */
    readonly arguments: string;
  };
  /** Why the reply could not be turned into a call (tolerant mode). */
  readonly parseError?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The ReAct metadata of a message, when it has some. */
export function reactMetadataOf(message: LLMMessage): ReActMessageMetadata | undefined {
  const value = message.metadata?.[REACT_METADATA_KEY];
  return isRecord(value) && typeof value.raw === 'string'
    ? (value as unknown as ReActMessageMetadata)
    : undefined;
}
