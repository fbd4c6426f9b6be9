import { SkeinError } from '@skein/spec';

/**
 * - `WORKFLOW_MODULE_INVALID`: the module given to `skein-mcp` cannot be imported, or exports
 *   nothing it can serve (`module`).
 * - `WORKFLOW_MODULE_FAILED`: the module's factory threw (`module`; the error as `cause`).
 */
export type McpModuleErrorCode = 'WORKFLOW_MODULE_INVALID' | 'WORKFLOW_MODULE_FAILED';

/** A workflow module `skein-mcp` cannot serve. */
export class McpModuleError<
  Code extends McpModuleErrorCode = McpModuleErrorCode,
> extends SkeinError<Code> {
  static override readonly errorName = 'McpModuleError';
  declare readonly module: string;

  constructor(code: Code, module: string, problem: string, cause?: unknown) {
    super(code, `Workflow module ${module} ${problem}`, {
      facts: { module },
      ...(cause === undefined ? {} : { cause }),
    });
  }
}
