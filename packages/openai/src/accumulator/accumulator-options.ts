import { randomUUID } from 'node:crypto';
import type { LLMStreamEvent } from '@skein/spec';
import { checkIntegerOption } from '../options/check-integer-option.js';
import type { ToolCallAccumulatorOptions } from './types.js';
import type { ChunkBounds } from './validate-chunk.js';

const DEFAULT_MAX_TOOL_CALL_INDEX = 1023;
const DEFAULT_MAX_TOOL_CALLS = 256;
const DEFAULT_MAX_ARGUMENTS_LENGTH = 8 * 1024 * 1024;
const DEFAULT_MAX_CHOICE_INDEX = 127;
const DEFAULT_MAX_TEXT_LENGTH = 16 * 1024 * 1024;

/** The accumulator's options, checked, with every default filled in. */
export interface ResolvedAccumulatorOptions {
  readonly onEvent: ((event: LLMStreamEvent) => void) | undefined;
  readonly bounds: ChunkBounds;
  readonly maxToolCalls: number;
  readonly maxArgumentsLength: number;
  readonly maxTextLength: number;
  readonly generateId: () => string;
}

function defaultGenerateId(): string {
  return `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
}

export function resolveAccumulatorOptions(
  options: ToolCallAccumulatorOptions,
): ResolvedAccumulatorOptions {
  checkIntegerOption('maxToolCallIndex', options.maxToolCallIndex, 0);
  checkIntegerOption('maxToolCalls', options.maxToolCalls, 0);
  checkIntegerOption('maxArgumentsLength', options.maxArgumentsLength, 0);
  checkIntegerOption('maxTextLength', options.maxTextLength, 0);
  checkIntegerOption('maxChoiceIndex', options.maxChoiceIndex, 0);
  return {
    onEvent: options.onEvent,
    bounds: {
      maxToolCallIndex: options.maxToolCallIndex ?? DEFAULT_MAX_TOOL_CALL_INDEX,
      maxChoiceIndex: options.maxChoiceIndex ?? DEFAULT_MAX_CHOICE_INDEX,
    },
    maxToolCalls: options.maxToolCalls ?? DEFAULT_MAX_TOOL_CALLS,
    maxArgumentsLength: options.maxArgumentsLength ?? DEFAULT_MAX_ARGUMENTS_LENGTH,
    maxTextLength: options.maxTextLength ?? DEFAULT_MAX_TEXT_LENGTH,
    generateId: options.generateId ?? defaultGenerateId,
  };
}
