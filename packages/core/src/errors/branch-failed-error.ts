import { SkeinError } from '@skein/spec';

/** A branch of a PARALLEL or MAP node failed under the `fail-fast` policy (the others were cancelled). */
export class BranchFailedError extends SkeinError<'BRANCH_FAILED'> {
  static override readonly errorName = 'BranchFailedError';
  /** The branch's path from the failing thread, e.g. `compare[2]` or `review/legal`. */
  readonly branchPath: string;
  readonly childThreadId: string;
  /** The branch's own error code. */
  readonly causeCode: string;

  constructor(branchPath: string, childThreadId: string, cause: { code: string; message: string }) {
    super(
      'BRANCH_FAILED',
      `Branch "${branchPath}" (thread ${childThreadId}) failed with ${cause.code}: ${cause.message}`,
      { details: { branchPath, childThreadId, causeCode: cause.code } },
    );
    this.branchPath = branchPath;
    this.childThreadId = childThreadId;
    this.causeCode = cause.code;
  }
}
