// A workflow module for `skein run` in the CLI tests.
import { ScriptedLLMClient } from '@skein/core/testing';
import type { DatasetWorkflowModule } from '../run/dataset-workflow.js';
import { qaEngine, qaModel } from './qa-engine.js';

const workflow: DatasetWorkflowModule = (context) => ({
  engine: qaEngine({
    llm: context.limitModel(new ScriptedLLMClient(qaModel)),
    // Slow tools for the Ctrl-C test.
    toolDelayMs: Number(process.env.QA_TOOL_DELAY_MS ?? 0),
  }),
  workflowId: 'qa',
  threadOptions: (item) => ({ input: (item as { q: string }).q }),
});
export default workflow;
