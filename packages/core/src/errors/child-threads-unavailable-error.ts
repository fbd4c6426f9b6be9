import { SkeinError } from '@skein/spec';

/** A node or tool needs to start child threads, but its executor was built without a thread builder. */
export class ChildThreadsUnavailableError extends SkeinError<'CHILD_THREADS_UNAVAILABLE'> {
  static override readonly errorName = 'ChildThreadsUnavailableError';
  readonly nodeId: string;

  constructor(nodeId: string) {
    super(
      'CHILD_THREADS_UNAVAILABLE',
      `Node "${nodeId}" starts child threads, which needs a SkeinEngine (or a ThreadExecutor given \`builder\`)`,
      { details: { nodeId } },
    );
    this.nodeId = nodeId;
  }
}
