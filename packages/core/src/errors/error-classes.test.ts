import { SkeinError } from '@skein/spec';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as api from '../index.js';
import { SchemaDialectError } from './schema-dialect-error.js';

type ErrorClass = (abstract new (
  ...args: never[]
) => SkeinError) & {
  isInstance(value: unknown): boolean;
};

const cause = new Error('boom');

// One instance of every error class this package exports (and the internal SchemaDialectError),
// with the code it must carry.
const table: [ErrorClass, SkeinError, string][] = [
  [
    api.CheckpointConflictError,
    new api.CheckpointConflictError('t', { messages: 1, log: 1 }, { messages: 0, log: 0 }),
    'CHECKPOINT_CONFLICT',
  ],
  [api.CheckpointNotFoundError, new api.CheckpointNotFoundError('t'), 'CHECKPOINT_NOT_FOUND'],
  [
    api.CheckpointSaveError,
    new api.CheckpointSaveError('t', undefined, cause),
    'CHECKPOINT_SAVE_FAILED',
  ],
  [
    api.ExpressionEvaluationError,
    new api.ExpressionEvaluationError('a + 1', 'a is text'),
    'EXPRESSION_EVALUATION',
  ],
  [
    api.ExpressionSyntaxError,
    new api.ExpressionSyntaxError('a +', 3, 'unexpected end'),
    'EXPRESSION_SYNTAX',
  ],
  [
    api.ExpressionTooComplexError,
    new api.ExpressionTooComplexError('((a))', 'depth', 1, 1),
    'EXPRESSION_TOO_COMPLEX',
  ],
  [api.InvalidArgumentError, new api.InvalidArgumentError('maxSteps', 'bad'), 'INVALID_ARGUMENT'],
  [api.InvalidToolError, new api.InvalidToolError('calc', 'no executor'), 'INVALID_TOOL'],
  [
    api.InvalidVariablesError,
    new api.InvalidVariablesError('wf', 'x is required'),
    'INVALID_VARIABLES',
  ],
  [api.ListenerError, new api.ListenerError('node:started', cause), 'LISTENER_FAILED'],
  [api.LLMCallError, new api.LLMCallError('agent', 3, cause), 'LLM_CALL_FAILED'],
  [
    api.MaxStepsExceededError,
    new api.MaxStepsExceededError('t', 10, 'agent'),
    'MAX_STEPS_EXCEEDED',
  ],
  [api.NodeExecutionError, new api.NodeExecutionError('t', 'agent', cause, 'cp-1'), 'NODE_FAILED'],
  [api.NoRouteError, new api.NoRouteError('route'), 'NO_ROUTE'],
  [
    api.ThreadConflictError,
    new api.ThreadConflictError('RESUME_CONFLICT', 't', 'claimed'),
    'RESUME_CONFLICT',
  ],
  [
    api.BranchFailedError,
    new api.BranchFailedError('fan/a', 't/fan@1/a', { code: 'X', message: 'x' }),
    'BRANCH_FAILED',
  ],
  [
    api.ChildThreadsUnavailableError,
    new api.ChildThreadsUnavailableError('fan'),
    'CHILD_THREADS_UNAVAILABLE',
  ],
  [api.MapItemsError, new api.MapItemsError('m', 'vars.items', 'text'), 'MAP_ITEMS_INVALID'],
  [
    api.MergeFunctionError,
    new api.MergeFunctionError('j', 'summary', 'is missing'),
    'MERGE_FUNCTION_INVALID',
  ],
  [
    api.SubworkflowDepthError,
    new api.SubworkflowDepthError('w', 8, 'a/b'),
    'SUBWORKFLOW_DEPTH_EXCEEDED',
  ],
  [
    api.SubworkflowFailedError,
    new api.SubworkflowFailedError('w', 't/s@1', { code: 'X', message: 'x' }),
    'SUBWORKFLOW_FAILED',
  ],
  [
    api.WorkflowToolPausedError,
    new api.WorkflowToolPausedError('w', 't/a@1#c'),
    'WORKFLOW_TOOL_PAUSED',
  ],
  [api.ResumeInputError, new api.ResumeInputError('t', 'no answer'), 'RESUME_INPUT_INVALID'],
  [
    api.StateCorruptError,
    new api.StateCorruptError('t', 'cp-1', 'state.step', 'is negative'),
    'STATE_CORRUPT',
  ],
  [api.ThreadCancelledError, new api.ThreadCancelledError('t'), 'THREAD_CANCELLED'],
  [api.ThreadStateError, new api.ThreadStateError('t', 'RUNNING', 'cannot resume'), 'THREAD_STATE'],
  [
    api.ToolArgumentsError,
    new api.ToolArgumentsError('calc', 'a is required'),
    'TOOL_ARGUMENTS_INVALID',
  ],
  [
    api.ToolConflictError,
    new api.ToolConflictError([{ name: 'calc', sources: ['local', 'mcp'] }]),
    'TOOL_CONFLICT',
  ],
  [api.ToolExecutionError, new api.ToolExecutionError('failed'), 'TOOL_FAILED'],
  [api.ToolNotFoundError, new api.ToolNotFoundError('calc', 'node "agent"'), 'TOOL_NOT_FOUND'],
  [api.ToolTimeoutError, new api.ToolTimeoutError('calc', 10), 'TOOL_TIMEOUT'],
  [
    api.TriggerFailedError,
    new api.TriggerFailedError('t', 'trg', 'agent', 'action', cause),
    'TRIGGER_FAILED',
  ],
  [
    api.ValueNotJsonError,
    new api.ValueNotJsonError('variable "x"', 'vars.x', 'a BigInt'),
    'VALUE_NOT_JSON',
  ],
  [
    api.WorkflowNotFoundError,
    new api.WorkflowNotFoundError('wf', undefined, []),
    'WORKFLOW_NOT_FOUND',
  ],
  [api.WorkflowValidationError, new api.WorkflowValidationError('wf', []), 'WORKFLOW_INVALID'],
  [
    SchemaDialectError,
    new SchemaDialectError('draft-04', 'unsupported'),
    'SCHEMA_DIALECT_UNSUPPORTED',
  ],
];

type Api = typeof api;
type ClassNames = {
  [K in keyof Api]: Api[K] extends abstract new (...args: never[]) => SkeinError ? K : never;
}[keyof Api];
type CodeOf<C> = C extends abstract new (...args: never[]) => SkeinError<infer Code> ? Code : never;
// ToolExecutionError's code is the tool's to choose (a type parameter, `TOOL_FAILED` by default).
type WideCodes = {
  [K in Exclude<ClassNames, 'SkeinError' | 'ToolExecutionError'>]: string extends CodeOf<Api[K]>
    ? K
    : never;
}[Exclude<ClassNames, 'SkeinError' | 'ToolExecutionError'>];

describe('every exported error class', () => {
  it('is in the table', () => {
    const exported = Object.values(api).filter(
      (value) => typeof value === 'function' && value.prototype instanceof SkeinError,
    );
    const tabled = new Set<unknown>(table.map(([type]) => type));
    expect(exported.filter((type) => !tabled.has(type))).toEqual([]);
  });

  it.each(table)(
    '%o has its code, and an isInstance that rejects its siblings',
    (type, error, code) => {
      expect(error.code).toBe(code);
      expect(SkeinError.isInstance(error)).toBe(true);
      for (const [other, instance] of table)
        expect(type.isInstance(instance), `${type.name}.isInstance(${other.name})`).toBe(
          other === type,
        );
    },
  );

  it('has a literal code type', () => {
    expectTypeOf<WideCodes>().toEqualTypeOf<never>();
    expectTypeOf<api.NodeExecutionError['code']>().toEqualTypeOf<'NODE_FAILED'>();
    expectTypeOf(new api.ToolExecutionError('x').code).toEqualTypeOf<'TOOL_FAILED'>();
  });

  it('says whether trying again can succeed', () => {
    expect(new api.ToolTimeoutError('calc', 1).retryable).toBe(true);
    expect(
      new api.NodeExecutionError('t', 'n', new api.ToolTimeoutError('calc', 1)).retryable,
    ).toBe(true);
    expect(new api.NodeExecutionError('t', 'n', new api.NoRouteError('n')).retryable).toBe(false);
    expect(new api.LLMCallError('n', 1, new api.InvalidArgumentError('a', 'b')).retryable).toBe(
      false,
    );
    expect(new api.WorkflowValidationError('wf', []).retryable).toBe(false);
  });
});
