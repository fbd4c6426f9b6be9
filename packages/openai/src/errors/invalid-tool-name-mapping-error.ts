import { SkeinError } from '@skein/spec';

/** A mapping handed to `ToolNameCodec.fromMapping()` that cannot be a codec's mapping. */
export class InvalidToolNameMappingError extends SkeinError<'INVALID_TOOL_NAME_MAPPING'> {
  static override readonly errorName = 'InvalidToolNameMappingError';
  /** The mapping key at fault. */
  readonly key: string;
  readonly problem: string;

  constructor(key: string, problem: string) {
    super('INVALID_TOOL_NAME_MAPPING', `tool_name_mapping[${JSON.stringify(key)}]: ${problem}`, {
      details: { key, problem },
    });
    this.key = key;
    this.problem = problem;
  }
}
