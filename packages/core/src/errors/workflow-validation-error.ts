import { SkeinError } from '@skein/spec';

export type WorkflowIssueCode =
  | 'INVALID_DEFINITION'
  | 'DUPLICATE_NODE'
  | 'UNKNOWN_NODE_TYPE'
  | 'INVALID_NODE_CONFIG'
  | 'NO_START'
  | 'MULTIPLE_STARTS'
  | 'NO_END'
  | 'NO_REACHABLE_END'
  | 'EDGE_TO_MISSING_NODE'
  | 'EDGE_FROM_MISSING_NODE'
  | 'DUPLICATE_EDGE'
  | 'END_HAS_OUTGOING'
  | 'UNREACHABLE_NODE'
  | 'DEAD_END'
  | 'ROUTE_WITHOUT_DEFAULT'
  | 'MULTIPLE_DEFAULTS'
  | 'INVALID_EXPRESSION'
  | 'UNKNOWN_TOOL'
  | 'UNKNOWN_GUARDRAIL'
  | 'CYCLE_WITHOUT_EXIT'
  | 'INVALID_TRIGGER'
  | 'INVALID_VARIABLES'
  | 'FAN_OUT_EDGE'
  | 'JOIN_MISMATCH'
  | 'BRANCH_NO_JOIN'
  | 'BRANCH_ESCAPES'
  | 'BRANCHES_SHARE_NODE'
  | 'SUBWORKFLOW_CYCLE';

/** One problem in a workflow definition, naming the node, edge or field it is about. */
export interface WorkflowIssue {
  readonly code: WorkflowIssueCode;
  readonly message: string;
  readonly nodeId?: string;
  readonly edgeId?: string;
  /** JSON path of the offending field, e.g. `nodes[3].config.tools[1]`. */
  readonly path?: string;
}

/** Every problem found in a workflow at once, so nothing has to be fixed one error at a time. */
export class WorkflowValidationError extends SkeinError<'WORKFLOW_INVALID'> {
  static override readonly errorName = 'WorkflowValidationError';
  readonly workflowId: string;
  readonly issues: readonly WorkflowIssue[];

  constructor(workflowId: string, issues: readonly WorkflowIssue[]) {
    const lines = issues.map((i) => {
      const where = i.nodeId
        ? `node "${i.nodeId}"`
        : i.edgeId
          ? `edge "${i.edgeId}"`
          : (i.path ?? 'workflow');
      return `- [${i.code}] ${where}: ${i.message}`;
    });
    super(
      'WORKFLOW_INVALID',
      `Workflow "${workflowId}" has ${issues.length} problem${issues.length === 1 ? '' : 's'}:\n${lines.join('\n')}`,
      { details: { workflowId, issues } },
    );
    this.workflowId = workflowId;
    this.issues = issues;
  }
}
