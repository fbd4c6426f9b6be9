import { SkeinError } from '@skein/spec';

/** A JOIN or SUBWORKFLOW names a merge function the engine was not given, or it returned no messages. */
export class MergeFunctionError extends SkeinError<'MERGE_FUNCTION_INVALID'> {
  static override readonly errorName = 'MergeFunctionError';
  readonly nodeId: string;
  readonly functionName: string;

  constructor(nodeId: string, functionName: string, problem: string) {
    super(
      'MERGE_FUNCTION_INVALID',
      `Node "${nodeId}": merge function "${functionName}" ${problem}`,
      {
        details: { nodeId, functionName },
      },
    );
    this.nodeId = nodeId;
    this.functionName = functionName;
  }
}
