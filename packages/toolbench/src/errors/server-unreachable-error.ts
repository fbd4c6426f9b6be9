import { SkeinError } from '@skein/spec';

/**
 * The virtual-API server could not be reached at all (refused connection, DNS failure, …). The
 * reference crashes here; a Skein tool throws this instead, which the engine turns into an
 * error tool message.
 */
export class ToolBenchServerUnreachableError extends SkeinError<'TOOLBENCH_SERVER_UNREACHABLE'> {
  static override readonly errorName = 'ToolBenchServerUnreachableError';
  readonly url: string;

  constructor(url: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      'TOOLBENCH_SERVER_UNREACHABLE',
      `Cannot reach the ToolBench server at ${url}: ${reason}`,
      {
        cause,
        details: { url },
      },
    );
    this.url = url;
  }
}
