import type { CompiledExpression } from '../expressions/ast.js';
import type { CompiledTemplate } from '../expressions/template.js';
import type { EdgeDefinition, NodeDefinition, WorkflowDefinition } from './types.js';

export interface CompiledEdge {
  readonly id: string;
  readonly from: string;
  readonly to: string;
  readonly condition?: CompiledExpression;
  readonly isDefault: boolean;
  readonly definition: EdgeDefinition;
}

/**
 * A validated workflow with everything the executor needs precomputed: node lookup, outgoing
 * edges in the order they are tried (conditional ones as declared, then the default), and every
 * expression and template parsed once.
 */
export interface CompiledWorkflow {
  readonly id: string;
  readonly version: string;
  readonly definition: WorkflowDefinition;
  readonly startNodeId: string;
  readonly nodes: ReadonlyMap<string, NodeDefinition>;
  readonly outgoing: ReadonlyMap<string, readonly CompiledEdge[]>;
  /** Expressions by source text (edge conditions, VARIABLE assignments, END outputs, triggers). */
  readonly expressions: ReadonlyMap<string, CompiledExpression>;
  /** Templates by source text (prompts, messages, TOOL node string arguments). */
  readonly templates: ReadonlyMap<string, CompiledTemplate>;
}
