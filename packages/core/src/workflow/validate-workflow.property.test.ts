import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WorkflowValidationError } from '../errors/workflow-validation-error.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import { NODE_TYPES } from './types.js';
import { validateWorkflow } from './validate-workflow.js';
import { WorkflowRegistry } from './workflow-registry.js';

// The validator must be total: whatever JSON (or other value) it is handed, it either returns a
// compiled workflow or throws one WorkflowValidationError. Shapes are generated close to a real
// workflow, with any field replaced by anything, so every branch of the validator is reached.

const junk = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.anything({ maxDepth: 2 }),
  fc.constantFrom(Number.NaN, -1, 2 ** 31, 1e9, 0, 1.5, '', 'abc', {}, [], null, true),
);
const maybe = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 3, arbitrary: arb }, { weight: 1, arbitrary: junk });
const ids = fc.constantFrom('start', 'llm', 'tool', 'route', 'end', 'ghost');
const expression = fc.oneof(
  fc.constantFrom('vars.x > 1', 'input', '((', 'a.__proto__', 'not not vars.a', '[1, 2'),
  fc.string(),
);
const record = (fields: Record<string, fc.Arbitrary<unknown>>) =>
  fc.record(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, maybe(v)])), {
    requiredKeys: [],
  });

const contextOperation = record({
  operation: fc.constantFrom('clear', 'truncate', 'insert', 'replace', 'filter', 'batch', 'x'),
  count: fc.integer(),
  maxTokens: fc.integer(),
  position: fc.integer(),
  message: record({ role: fc.constantFrom('user', 'system'), content: fc.string() }),
  action: fc.constantFrom('start', 'rollback'),
  batch: fc.integer(),
  boundary: fc.integer(),
  roles: fc.array(fc.string()),
  keep: fc.constantFrom('first', 'last'),
});
const config = record({
  systemPrompt: fc.string(),
  prompt: fc.string(),
  tools: fc.array(maybe(fc.constantFrom('calc', 'missing'))),
  maxToolRounds: fc.integer(),
  toolConcurrency: fc.integer(),
  temperature: fc.double(),
  maxTokens: fc.integer(),
  retry: record({
    maxAttempts: fc.integer(),
    initialDelayMs: fc.double(),
    maxDelayMs: fc.double(),
  }),
  tool: fc.constantFrom('calc', 'missing'),
  args: fc.dictionary(fc.string(), junk),
  operations: fc.array(contextOperation, { maxLength: 3 }),
  assign: fc.dictionary(fc.string(), expression),
  values: fc.dictionary(fc.string(), junk),
  message: record({ role: fc.constantFrom('user', 'system'), content: fc.string() }),
  output: expression,
  variable: fc.string(),
  addMessage: fc.boolean(),
});
const node = record({ id: ids, type: fc.constantFrom(...NODE_TYPES, 'BOGUS'), config });
const edge = record({
  id: fc.string(),
  from: ids,
  to: ids,
  condition: expression,
  default: fc.boolean(),
});
const trigger = record({
  id: fc.string(),
  once: fc.boolean(),
  when: record({
    type: fc.constantFrom(
      'visible-tokens-over',
      'visible-messages-over',
      'node-completed',
      'tool-failed',
      'expression',
      'never',
    ),
    tokens: fc.integer(),
    count: fc.integer(),
    nodeId: ids,
    times: fc.integer(),
    tool: fc.string(),
    expression,
  }),
  action: record({
    type: fc.constantFrom('context', 'set-variable', 'goto', 'nope'),
    operation: contextOperation,
    variable: fc.string(),
    expression,
    nodeId: ids,
  }),
});
const workflow = record({
  id: fc.string(),
  version: fc.string(),
  nodes: fc.array(node, { maxLength: 6 }),
  edges: fc.array(edge, { maxLength: 6 }),
  initialTools: fc.array(maybe(fc.constantFrom('calc', 'missing')), { maxLength: 3 }),
  variables: record({
    schema: fc.constantFrom(
      { type: 'object' },
      { type: 'object', properties: { x: { type: 'number' } } },
      { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' },
      { $schema: 'http://json-schema.org/draft-04/schema#' },
      { type: 'nonsense' },
    ),
    defaults: fc.dictionary(fc.string(), junk),
  }),
  triggers: fc.array(trigger, { maxLength: 3 }),
});

const tools = new ToolRegistry().register({
  name: 'calc',
  description: 'calc',
  parameters: { type: 'object' },
  execute: () => 0,
});

function onlyValidationErrors(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    if (!(error instanceof WorkflowValidationError)) throw error;
    expect(error.issues.length).toBeGreaterThan(0);
  }
}

describe('validateWorkflow is total (fast-check)', () => {
  it('workflow-shaped values with any field replaced by anything', () => {
    fc.assert(
      fc.property(workflow, (definition) => {
        onlyValidationErrors(() => validateWorkflow(definition as never, { tools }));
      }),
      { numRuns: 1_000 },
    );
  }, 60_000);

  it('arbitrary values', () => {
    fc.assert(
      fc.property(fc.anything(), (definition) => {
        onlyValidationErrors(() => validateWorkflow(definition as never));
      }),
      { numRuns: 500 },
    );
  }, 60_000);

  it('registration: any value is registered or refused with a WorkflowValidationError', () => {
    fc.assert(
      fc.property(fc.oneof(workflow, fc.anything()), (definition) => {
        onlyValidationErrors(() => new WorkflowRegistry({ tools }).register(definition as never));
      }),
      { numRuns: 500 },
    );
  }, 60_000);
});
