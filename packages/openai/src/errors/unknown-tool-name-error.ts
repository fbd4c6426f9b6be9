import { SkeinError } from '@skein/spec';

/** `ToolNameCodec.decode()` of a name the codec never produced. */
export class UnknownToolNameError extends SkeinError<'UNKNOWN_TOOL_NAME'> {
  static override readonly errorName = 'UnknownToolNameError';
  readonly encodedName: string;

  constructor(encodedName: string) {
    super(
      'UNKNOWN_TOOL_NAME',
      `Tool name "${encodedName}" was not produced by this ToolNameCodec; no original name is known for it`,
      { details: { encodedName } },
    );
    this.encodedName = encodedName;
  }
}
