// The output schema of every tool: the shape of `ThreadReport` (report/thread-report.ts).

/** The JSON Schema of a `ThreadReport`, the output schema of every tool of the server. */
export const THREAD_REPORT_SCHEMA = {
  type: 'object',
  properties: {
    threadId: { type: 'string' },
    workflowId: { type: 'string' },
    status: { enum: ['PENDING', 'RUNNING', 'COMPLETED', 'FAILED', 'PAUSED', 'CANCELLED'] },
    output: {},
    error: {
      type: 'object',
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        nodeId: { type: 'string' },
        guardrail: {
          type: 'object',
          description: 'GUARDRAIL_TRIPPED: the guardrail that stopped the thread, where and why',
          properties: {
            name: { type: 'string' },
            stage: { enum: ['input', 'output', 'tool-call', 'tool-result'] },
            reason: { type: 'string' },
            endsChat: { type: 'boolean' },
            toolCallId: { type: 'string' },
            toolName: { type: 'string' },
          },
          required: ['name', 'stage', 'reason'],
        },
      },
      required: ['code', 'message'],
    },
    waitingFor: {
      type: 'object',
      properties: { kind: { enum: ['user-input', 'tool-approval', 'branches'] } },
      required: ['kind'],
    },
  },
  required: ['threadId', 'workflowId', 'status'],
} as const;
