import { type NotFoundError, SkeinError } from '@skein/spec';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as api from '../index.js';
import * as testing from '../testing/index.js';
import { type CoreNotFoundCode, toolNotFound, workflowNotFound } from './not-found.js';

type ErrorClass = (abstract new (
  ...args: never[]
) => SkeinError) & {
  isInstance(value: unknown): boolean;
};

const cause = new Error('boom');

// One instance per code of each class with several codes: typed so a code added to a union and
// missing here does not compile.
const expressionErrors: { [C in api.ExpressionErrorCode]: api.ExpressionError<C> } = {
  EXPRESSION_SYNTAX: api.ExpressionError.syntax('a +', 3, 'unexpected end'),
  EXPRESSION_EVALUATION: api.ExpressionError.evaluation('a + 1', 'a is text'),
  EXPRESSION_TOO_COMPLEX: api.ExpressionError.tooComplex('((a))', 'depth', 1, 1),
};
const toolErrors: { [C in api.ToolErrorCode]: api.ToolError<C> } = {
  INVALID_TOOL: api.ToolError.invalidTool('calc', 'no executor'),
  TOOL_CONFLICT: api.ToolError.conflict([{ name: 'calc', sources: ['local', 'mcp'] }]),
  TOOL_ARGUMENTS_INVALID: api.ToolError.argumentsInvalid('calc', 'a is required'),
  SCHEMA_DIALECT_UNSUPPORTED: api.ToolError.schemaDialect('draft-04', 'unsupported'),
};
const threadErrors: { [C in api.ThreadErrorCode]: api.ThreadError<C> } = {
  THREAD_STATE: api.ThreadError.state('t', 'RUNNING', 'cannot resume'),
  RESUME_INPUT_INVALID: api.ThreadError.resumeInput('t', 'no answer'),
  MAX_STEPS_EXCEEDED: api.ThreadError.maxSteps('t', 10, 'agent'),
  THREAD_CANCELLED: api.ThreadError.cancelled('t'),
  THREAD_INTERRUPTED: api.ThreadError.interrupted('t'),
  THREAD_BUSY: api.ThreadError.busy('t', 'RUNNING', 'another turn runs'),
  STATE_CORRUPT: api.ThreadError.stateCorrupt('t', 'cp-1', 'state.step', 'is negative'),
  VALUE_NOT_JSON: api.ThreadError.valueNotJson('variable "x"', 'vars.x', 'a BigInt'),
  INVALID_VARIABLES: api.ThreadError.invalidVariables('wf', 'x is required'),
  CHECKPOINT_SAVE_FAILED: api.ThreadError.checkpointSaveFailed('t', undefined, cause),
  UPGRADE_REFUSED: api.ThreadError.upgradeRefused('wf', '2', [
    { threadId: 't', code: 'NODE_MISSING', message: 'no node "ask"', nodeId: 'ask' },
  ]),
};
const nodeErrors: { [C in api.NodeErrorCode]: api.NodeError<C> } = {
  NODE_FAILED: api.NodeError.failed('t', 'agent', cause, 'cp-1'),
  NO_ROUTE: api.NodeError.noRoute('route'),
  TRIGGER_FAILED: api.NodeError.triggerFailed('t', 'trg', 'agent', 'action', cause),
  BRANCH_FAILED: api.NodeError.branchFailed('fan/a', 't/fan@1/a', { code: 'X', message: 'x' }),
  SUBWORKFLOW_FAILED: api.NodeError.subworkflowFailed('w', 't/s@1', { code: 'X', message: 'x' }),
  SUBWORKFLOW_DEPTH_EXCEEDED: api.NodeError.subworkflowDepth('w', 8, 'a/b'),
  MAP_ITEMS_INVALID: api.NodeError.mapItemsInvalid('m', 'vars.items', 'text'),
  MERGE_FUNCTION_INVALID: api.NodeError.mergeFunctionInvalid('j', 'summary', 'is missing'),
  WORKFLOW_TOOL_PAUSED: api.NodeError.workflowToolPaused('w', 't/a@1#c'),
  CHILD_THREADS_UNAVAILABLE: api.NodeError.childThreadsUnavailable('fan'),
  OUTPUT_INVALID: api.NodeError.outputInvalid('extract', '(root) must be object'),
  WAIT_TIMED_OUT: api.NodeError.waitTimedOut('ask', '2026-01-01T00:00:00.000Z'),
  WAIT_TIME_INVALID: api.NodeError.waitTimeInvalid('nap', 'vars.ms', 'soon', 'milliseconds'),
};
const guardrailErrors: { [C in api.GuardrailErrorCode]: api.GuardrailError<C> } = {
  GUARDRAIL_TRIPPED: api.GuardrailError.tripped({ guardrail: 'pii', stage: 'output', reason: 'x' }),
  GUARDRAIL_FAILED: api.GuardrailError.failed({ guardrail: 'pii', reason: 'timed out' }, cause),
  GUARDRAIL_INVALID: api.GuardrailError.invalid('pii', 'no check'),
};
const notFoundErrors: { [C in CoreNotFoundCode]: NotFoundError<C> } = {
  TOOL_NOT_FOUND: toolNotFound('calc', 'node "agent"'),
  WORKFLOW_NOT_FOUND: workflowNotFound('wf', undefined, []),
};
const scriptErrors: { [C in testing.ScriptErrorCode]: testing.ScriptError<C> } = {
  SCRIPT_INVALID: testing.ScriptError.invalid('script[0].text', 'is not a known field', [
    'content',
  ]),
  SCRIPT_EXHAUSTED: testing.ScriptError.exhausted(2, 1, 'user: "hi"'),
};

function rows(
  type: ErrorClass,
  errors: Record<string, SkeinError>,
): [ErrorClass, SkeinError, string][] {
  return Object.entries(errors).map(([code, error]) => [type, error, code]);
}

// Every error class this package exports (from `.` and `./testing`), with each of its codes.
const table: [ErrorClass, SkeinError, string][] = [
  [
    api.CheckpointConflictError,
    new api.CheckpointConflictError('t', { messages: 1, log: 1 }, { messages: 0, log: 0 }),
    'CHECKPOINT_CONFLICT',
  ],
  [api.CheckpointNotFoundError, new api.CheckpointNotFoundError('t'), 'CHECKPOINT_NOT_FOUND'],
  [api.InvalidArgumentError, new api.InvalidArgumentError('maxSteps', 'bad'), 'INVALID_ARGUMENT'],
  [
    api.ThreadConflictError,
    new api.ThreadConflictError('RESUME_CONFLICT', 't', 'claimed'),
    'RESUME_CONFLICT',
  ],
  [
    api.ThreadConflictError,
    new api.ThreadConflictError('THREAD_LEASED', 't', 'leased'),
    'THREAD_LEASED',
  ],
  [api.ToolExecutionError, new api.ToolExecutionError('failed'), 'TOOL_FAILED'],
  [api.ToolTimeoutError, new api.ToolTimeoutError('calc', 10), 'TOOL_TIMEOUT'],
  ...rows(api.NotFoundError, notFoundErrors),
  [api.WorkflowValidationError, new api.WorkflowValidationError('wf', []), 'WORKFLOW_INVALID'],
  ...rows(api.ExpressionError, expressionErrors),
  ...rows(api.ToolError, toolErrors),
  ...rows(api.ThreadError, threadErrors),
  ...rows(api.NodeError, nodeErrors),
  ...rows(api.GuardrailError, guardrailErrors),
  [api.LLMCallError, new api.LLMCallError('agent', 3, cause), 'LLM_CALL_FAILED'],
  [api.ListenerError, new api.ListenerError('node:started', cause), 'LISTENER_FAILED'],
  ...rows(testing.ScriptError, scriptErrors),
];

type Api = typeof api & typeof testing;
type ClassNames = {
  [K in keyof Api]: Api[K] extends abstract new (...args: never[]) => SkeinError ? K : never;
}[keyof Api];
type CodeOf<C> = C extends abstract new (...args: never[]) => SkeinError<infer Code> ? Code : never;
// ToolExecutionError's code is the tool's to choose (a type parameter, `TOOL_FAILED` by default);
// NotFoundError's is each package's (core's are `CoreNotFoundCode`).
type Wide = 'SkeinError' | 'ToolExecutionError' | 'NotFoundError';
type WideCodes = {
  [K in Exclude<ClassNames, Wide>]: string extends CodeOf<Api[K]> ? K : never;
}[Exclude<ClassNames, Wide>];

describe('every exported error class', () => {
  it('is in the table', () => {
    const exported = [...Object.values(api), ...Object.values(testing)].filter(
      (value) => typeof value === 'function' && value.prototype instanceof SkeinError,
    );
    const tabled = new Set<unknown>(table.map(([type]) => type));
    expect(exported.filter((type) => !tabled.has(type))).toEqual([]);
  });

  // Nine since guardrails: a trip is what an app catches by class, as OpenAI Agents' tripwire
  // exceptions are, and it fits none of the others (decision 0042).
  it('is one of at most nine of core, besides those of @skein/spec', () => {
    const own = new Set(table.map(([type]) => type));
    for (const spec of [
      api.CheckpointConflictError,
      api.CheckpointNotFoundError,
      api.InvalidArgumentError,
      api.ThreadConflictError,
      api.ToolExecutionError,
      api.ToolTimeoutError,
      api.NotFoundError,
    ])
      own.delete(spec);
    expect([...own].map((type) => type.name).sort()).toEqual([
      'ExpressionError',
      'GuardrailError',
      'LLMCallError',
      'ListenerError',
      'NodeError',
      'ScriptError',
      'ThreadError',
      'ToolError',
      'WorkflowValidationError',
    ]);
  });

  it.each(table)(
    '%o has its code %#, and an isInstance that rejects its siblings',
    (type, error, code) => {
      expect(error.code).toBe(code);
      expect(error.code).toMatch(/^[A-Z]+(_[A-Z]+)*$/);
      expect(SkeinError.isInstance(error)).toBe(true);
      // A class of a kind (CheckpointNotFoundError is a NotFoundError) is not a sibling of it.
      for (const [other, instance] of table)
        expect(type.isInstance(instance), `${type.name}.isInstance(${other.name})`).toBe(
          other === type || other.prototype instanceof type,
        );
    },
  );

  it('has a literal code type', () => {
    expectTypeOf<WideCodes>().toEqualTypeOf<never>();
    expectTypeOf<api.NodeError['code']>().toEqualTypeOf<api.NodeErrorCode>();
    expectTypeOf(api.NodeError.noRoute('n').code).toEqualTypeOf<'NO_ROUTE'>();
    expectTypeOf(toolNotFound('t', 'x').code).toEqualTypeOf<'TOOL_NOT_FOUND'>();
    expectTypeOf(new api.ToolExecutionError('x').code).toEqualTypeOf<'TOOL_FAILED'>();
  });

  it('says whether trying again can succeed: only where the cause or the failure says so', () => {
    // `cause` is a plain Error, which SkeinError.isRetryable takes as transient.
    expect(
      table
        .filter(([, e]) => e.retryable)
        .map(([, e]) => e.code)
        .sort(),
    ).toEqual([
      'CHECKPOINT_SAVE_FAILED',
      'LLM_CALL_FAILED',
      'NODE_FAILED',
      'OUTPUT_INVALID',
      'TOOL_TIMEOUT',
    ]);
    expect(api.NodeError.failed('t', 'n', new api.ToolTimeoutError('calc', 1)).retryable).toBe(
      true,
    );
    expect(api.NodeError.failed('t', 'n', api.NodeError.noRoute('n')).retryable).toBe(false);
    expect(
      api.ThreadError.checkpointSaveFailed('t', 'cp', api.NodeError.noRoute('n')).retryable,
    ).toBe(false);
    expect(new api.LLMCallError('n', 1, new api.InvalidArgumentError('a', 'b')).retryable).toBe(
      false,
    );
  });
});

describe('the facts of each code', () => {
  it('are typed fields, and in details', () => {
    const failed = nodeErrors.NODE_FAILED;
    expect(failed).toMatchObject({ threadId: 't', nodeId: 'agent', lastCheckpointId: 'cp-1' });
    expect(failed.details).toEqual({ threadId: 't', nodeId: 'agent', lastCheckpointId: 'cp-1' });
    expect(failed.cause).toBe(cause);
    expect(nodeErrors.TRIGGER_FAILED).toMatchObject({ triggerId: 'trg', stage: 'action' });
    expect(nodeErrors.BRANCH_FAILED).toMatchObject({ branchPath: 'fan/a', causeCode: 'X' });
    expect(nodeErrors.MAP_ITEMS_INVALID).toMatchObject({ expression: 'vars.items', got: 'string' });
    expect(nodeErrors.SUBWORKFLOW_DEPTH_EXCEEDED.details).toEqual({
      workflowId: 'w',
      maxDepth: 8,
      branchPath: 'a/b',
    });
    expect(threadErrors.THREAD_STATE).toMatchObject({ threadId: 't', status: 'RUNNING' });
    expect(threadErrors.MAX_STEPS_EXCEEDED).toMatchObject({ maxSteps: 10, nodeId: 'agent' });
    expect(threadErrors.VALUE_NOT_JSON).toMatchObject({ target: 'variable "x"', path: 'vars.x' });
    expect(threadErrors.STATE_CORRUPT).toMatchObject({ field: 'state.step', checkpointId: 'cp-1' });
    expect(expressionErrors.EXPRESSION_SYNTAX.position).toBe(3);
    expect(expressionErrors.EXPRESSION_TOO_COMPLEX).toMatchObject({ limit: 'depth', max: 1 });
    expect(expressionErrors.EXPRESSION_TOO_COMPLEX.details).toEqual({
      limit: 'depth',
      max: 1,
      position: 1,
      length: 5,
    });
    expect(toolErrors.TOOL_CONFLICT.conflicts).toEqual([
      { name: 'calc', sources: ['local', 'mcp'] },
    ]);
    expect(toolErrors.SCHEMA_DIALECT_UNSUPPORTED.declared).toBe('draft-04');
    expect(notFoundErrors.TOOL_NOT_FOUND.details).toEqual({
      toolName: 'calc',
      where: 'node "agent"',
    });
    expect(scriptErrors.SCRIPT_EXHAUSTED).toMatchObject({ call: 2, steps: 1 });
    expect(scriptErrors.SCRIPT_EXHAUSTED.details).toEqual({
      calls: 2,
      steps: 1,
      lastMessage: 'user: "hi"',
    });
  });

  it('are only those of the code: an error has no field for a fact it does not have', () => {
    expect(Object.keys(nodeErrors.NO_ROUTE)).not.toContain('threadId');
    expect('lastCheckpointId' in threadErrors.CHECKPOINT_SAVE_FAILED).toBe(false);
    expect('nodeId' in nodeErrors.BRANCH_FAILED).toBe(false);
  });
});
