import { describe, expect, it } from 'vitest';
import { RunnerError } from '../errors/runner-error.js';
import { THROWING_WORKFLOW_MODULE } from '../test-support/spawn-child.js';
import { loadWorkflowModule } from './load-workflow-module.js';

describe('loadWorkflowModule', () => {
  it('wraps a factory that throws in WORKFLOW_MODULE_FAILED, naming the module, the error as cause', async () => {
    const error = await loadWorkflowModule(THROWING_WORKFLOW_MODULE, {
      runId: 'r',
      limitModel: (llm) => llm,
    }).catch((e: unknown) => e);
    expect(RunnerError.isInstance(error), String(error)).toBe(true);
    const failure = error as RunnerError;
    expect(failure.code).toBe('WORKFLOW_MODULE_FAILED');
    expect(failure.module).toBe(THROWING_WORKFLOW_MODULE);
    expect(failure.message).toContain('OPENAI_API_KEY is not set');
    expect((failure.cause as Error).message).toBe('OPENAI_API_KEY is not set');
  });
});
