import { SkeinError } from '@skein/spec';

/** A benchmark query (or one of its `api_list` entries) that does not have the expected shape. */
export class InvalidToolBenchQueryError extends SkeinError<'TOOLBENCH_INVALID_QUERY'> {
  static override readonly errorName = 'InvalidToolBenchQueryError';
  readonly path: string;

  constructor(path: string, problem: string) {
    super('TOOLBENCH_INVALID_QUERY', `Invalid ToolBench query at ${path}: ${problem}`, {
      details: { path, problem },
    });
    this.path = path;
  }
}
