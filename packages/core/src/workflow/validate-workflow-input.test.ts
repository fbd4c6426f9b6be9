import { describe, expect, it } from 'vitest';
import {
  type WorkflowIssue,
  WorkflowValidationError,
} from '../errors/workflow-validation-error.js';
import { validateWorkflow } from './validate-workflow.js';

// Definitions often arrive as JSON (a file, a request body): every shape must come back as a
// WorkflowValidationError naming the field, never as a TypeError from inside the validator.

const base = {
  id: 'w',
  version: '1',
  nodes: [
    { id: 'start', type: 'START' },
    { id: 'llm', type: 'LLM' },
    { id: 'end', type: 'END' },
  ],
  edges: [
    { from: 'start', to: 'llm' },
    { from: 'llm', to: 'end' },
  ],
};

function issuesOf(definition: unknown): WorkflowIssue[] {
  try {
    validateWorkflow(definition as never);
  } catch (error) {
    expect(error).toBeInstanceOf(WorkflowValidationError);
    return [...(error as WorkflowValidationError).issues];
  }
  return [];
}

const withLLM = (config: unknown) => ({
  ...base,
  nodes: [base.nodes[0], { id: 'llm', type: 'LLM', config }, base.nodes[2]],
});

describe('validateWorkflow on malformed JSON input', () => {
  it('initialTools that is not an array', () => {
    for (const initialTools of ['abc', 5, {}, null])
      expect(issuesOf({ ...base, initialTools }), JSON.stringify(initialTools)).toEqual([
        expect.objectContaining({ code: 'INVALID_DEFINITION', path: 'initialTools' }),
      ]);
  });

  it('triggers that is not an array', () => {
    for (const triggers of [{}, 'abc', 7, null])
      expect(issuesOf({ ...base, triggers }), JSON.stringify(triggers)).toEqual([
        expect.objectContaining({ code: 'INVALID_TRIGGER', path: 'triggers' }),
      ]);
  });

  it('variables, variables.defaults and TOOL args of the wrong kind', () => {
    expect(issuesOf({ ...base, variables: 'abc' })).toEqual([
      expect.objectContaining({ code: 'INVALID_VARIABLES', path: 'variables' }),
    ]);
    expect(issuesOf({ ...base, variables: { defaults: [1] } })).toEqual([
      expect.objectContaining({ code: 'INVALID_VARIABLES', path: 'variables.defaults' }),
    ]);
    const tool = {
      ...base,
      nodes: [
        base.nodes[0],
        { id: 'llm', type: 'TOOL', config: { tool: 'x', args: 'abc' } },
        base.nodes[2],
      ],
    };
    expect(issuesOf(tool)).toEqual([
      expect.objectContaining({ code: 'INVALID_NODE_CONFIG', path: 'nodes[1].config.args' }),
    ]);
  });

  it('unknown trigger condition and action types are rejected', () => {
    const issues = issuesOf({
      ...base,
      triggers: [
        { id: 'a', when: { type: 'every-full-moon' }, action: { type: 'goto', nodeId: 'end' } },
        { id: 'b', when: { type: 'node-completed', nodeId: 'llm' }, action: { type: 'explode' } },
      ],
    });
    expect(issues).toEqual([
      expect.objectContaining({ code: 'INVALID_TRIGGER', path: 'triggers[0].when.type' }),
      expect.objectContaining({ code: 'INVALID_TRIGGER', path: 'triggers[1].action.type' }),
    ]);
    expect(issues[0]!.message).toContain('"every-full-moon"');
  });

  it('trigger fields of the wrong kind', () => {
    const issues = issuesOf({
      ...base,
      triggers: [
        {
          id: 'a',
          when: { type: 'visible-tokens-over', tokens: -1 },
          action: { type: 'set-variable', variable: 5, expression: 'vars.x' },
          once: 'yes',
        },
        { id: 'b', when: { type: 'tool-failed', times: 0, tool: 3 }, action: { type: 'goto' } },
        {
          id: 'c',
          when: { type: 'visible-messages-over', count: Number.NaN },
          action: { type: 'context', operation: { type: 'CLEAR' } },
        },
      ],
    });
    expect(issues.map((i) => i.path)).toEqual([
      'triggers[0].when.tokens',
      'triggers[0].action.variable',
      'triggers[0].once',
      'triggers[1].when.times',
      'triggers[1].when.tool',
      'triggers[1].action.nodeId',
      'triggers[2].when.count',
    ]);
    expect(issues.every((i) => i.code === 'INVALID_TRIGGER')).toBe(true);
  });
});

describe('validateWorkflow: numeric options', () => {
  it('names the option and the allowed range', () => {
    const issues = issuesOf(
      withLLM({
        maxToolRounds: Number.NaN,
        toolConcurrency: 1e9,
        temperature: -1,
        maxTokens: 1.5,
        retry: { maxAttempts: 1e9, initialDelayMs: -1, maxDelayMs: 2 ** 31 },
      }),
    );
    const byPath = Object.fromEntries(issues.map((i) => [i.path, i.message]));
    expect(byPath).toEqual({
      'nodes[1].config.maxToolRounds': expect.stringMatching(
        /^maxToolRounds must be an integer from 1 to 10000, got NaN$/,
      ),
      'nodes[1].config.toolConcurrency': expect.stringMatching(/integer from 1 to 1000/),
      'nodes[1].config.temperature': expect.stringMatching(/number from 0 to 2/),
      'nodes[1].config.maxTokens': expect.stringMatching(/integer from 1 to/),
      'nodes[1].config.retry.maxAttempts': expect.stringMatching(/integer from 1 to 100\b/),
      'nodes[1].config.retry.initialDelayMs': expect.stringMatching(/from 0 to 2147483647/),
      'nodes[1].config.retry.maxDelayMs': expect.stringMatching(/from 0 to 2147483647/),
    });
    expect(issues.every((i) => i.code === 'INVALID_NODE_CONFIG' && i.nodeId === 'llm')).toBe(true);
  });

  it('a retry policy that is not an object, and context operation numbers', () => {
    expect(issuesOf(withLLM({ retry: 3 }))).toEqual([
      expect.objectContaining({ path: 'nodes[1].config.retry', code: 'INVALID_NODE_CONFIG' }),
    ]);
    const cp = {
      ...base,
      nodes: [
        base.nodes[0],
        {
          id: 'llm',
          type: 'CONTEXT_PROCESSOR',
          config: {
            operations: [
              { type: 'BATCH_MANAGEMENT', action: 'start', boundary: Number.NaN },
              { type: 'TRUNCATE', keep: 'last', count: 2 ** 60 },
            ],
          },
        },
        base.nodes[2],
      ],
    };
    expect(issuesOf(cp).map((i) => i.path)).toEqual([
      'nodes[1].config.operations[0].boundary',
      'nodes[1].config.operations[1].count',
    ]);
  });

  it('reads the former spelling of context operations, and names what a TRUNCATE lacks', () => {
    const node = (operations: unknown[]) => ({
      ...base,
      nodes: [
        base.nodes[0],
        { id: 'llm', type: 'CONTEXT_PROCESSOR', config: { operations } },
        base.nodes[2],
      ],
    });
    // The former `{ operation: 'clear' }` spelling is gone (issue 48): it names no type.
    expect(issuesOf(node([{ operation: 'clear' }])).map((i) => i.code)).toEqual([
      'INVALID_NODE_CONFIG',
    ]);
    expect(
      issuesOf(node([{ type: 'TRUNCATE', count: 2 }, { type: 'clear' }])).map((i) => i.message),
    ).toEqual([
      'TRUNCATE with count needs keep: "first" or "last"',
      'context operation needs type CLEAR, TRUNCATE, INSERT, REPLACE, FILTER, SUMMARIZE, BATCH_MANAGEMENT (e.g. { "type": "CLEAR" })',
    ]);
  });

  it('accepts the edges of every range', () => {
    expect(
      issuesOf(
        withLLM({
          maxToolRounds: 10_000,
          toolConcurrency: 1,
          temperature: 0,
          maxTokens: 1,
          retry: { maxAttempts: 100, initialDelayMs: 0, maxDelayMs: 2 ** 31 - 1 },
        }),
      ),
    ).toEqual([]);
  });
});
