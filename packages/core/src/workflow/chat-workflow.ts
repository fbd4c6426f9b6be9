import type { LLMNodeConfig, WorkflowDefinition } from './types.js';

export interface ChatWorkflowOptions
  extends Pick<
    LLMNodeConfig,
    | 'systemPrompt'
    | 'tools'
    | 'model'
    | 'temperature'
    | 'maxTokens'
    | 'maxToolRounds'
    | 'retry'
    | 'compact'
  > {
  /** Default `chat`: the workflow `engine.send` starts new threads of. */
  readonly id?: string;
  readonly version?: string;
  readonly description?: string;
  /**
   * The workflow's initial tools: offered to the model, and described in every batch (see
   * `startNewBatchWithInitialTools`), so a CLEAR keeps them described. `tools` alone offers
   * tools without the description message.
   */
  readonly initialTools?: readonly string[];
}

/**
 * The common chat as a workflow: START -> LLM (`reply`) -> END, whose output is the reply's text.
 * Each message sent to a thread of it is one turn; the conversation carries over between turns,
 * and the system prompt is shown once however many turns there are.
 */
export function chatWorkflow(options: ChatWorkflowOptions = {}): WorkflowDefinition {
  const { id = 'chat', version = '1', description, initialTools, ...llm } = options;
  return {
    id,
    version,
    ...(description === undefined ? {} : { description }),
    ...(initialTools ? { initialTools: [...initialTools] } : {}),
    nodes: [
      { id: 'start', type: 'START' },
      { id: 'reply', type: 'LLM', config: llm },
      { id: 'end', type: 'END' },
    ],
    edges: [
      { from: 'start', to: 'reply' },
      { from: 'reply', to: 'end' },
    ],
  };
}
