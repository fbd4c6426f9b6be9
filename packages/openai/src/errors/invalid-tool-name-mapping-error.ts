import { SkeinError } from '@skein/conversation';

/** A mapping handed to `ToolNameCodec.fromMapping()` that cannot be a codec's mapping. */
export class InvalidToolNameMappingError extends SkeinError {
  constructor(key: string, problem: string) {
    super('INVALID_TOOL_NAME_MAPPING', `tool_name_mapping[${JSON.stringify(key)}]: ${problem}`, {
      details: { key, problem },
    });
  }
}
