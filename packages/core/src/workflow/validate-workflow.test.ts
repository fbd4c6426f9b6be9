import { describe, expect, it } from 'vitest';
import {
  type WorkflowIssueCode,
  WorkflowValidationError,
} from '../errors/workflow-validation-error.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import { toMermaid } from './mermaid.js';
import type { EdgeDefinition, NodeDefinition, WorkflowDefinition } from './types.js';
import { validateWorkflow } from './validate-workflow.js';
import { WorkflowBuilder } from './workflow-builder.js';
import { WorkflowRegistry } from './workflow-registry.js';

const tools = new ToolRegistry().register({
  name: 'calculator',
  description: 'math',
  parameters: { type: 'object' },
  execute: () => 0,
});

function issuesOf(def: WorkflowDefinition, withTools = true) {
  try {
    validateWorkflow(def, withTools ? { tools } : {});
  } catch (error) {
    if (error instanceof WorkflowValidationError) return error.issues;
    throw error;
  }
  return [];
}

function wf(
  nodes: NodeDefinition[],
  edges: EdgeDefinition[],
  extra: Partial<WorkflowDefinition> = {},
): WorkflowDefinition {
  return { id: 'w', version: '1', nodes, edges, ...extra };
}

const start: NodeDefinition = { id: 'start', type: 'START' };
const end: NodeDefinition = { id: 'end', type: 'END' };

function expectIssue(
  def: WorkflowDefinition,
  code: WorkflowIssueCode,
  where: { nodeId?: string; edgeId?: string; path?: string },
) {
  const issues = issuesOf(def);
  const match = issues.find((i) => i.code === code);
  expect(match, `${code} in ${JSON.stringify(issues)}`).toBeDefined();
  expect(match).toMatchObject(where);
}

describe('validateWorkflow', () => {
  it('accepts a valid workflow and precomputes routing', () => {
    const compiled = validateWorkflow(
      new WorkflowBuilder('ok', '1')
        .initialTools(['calculator'])
        .start()
        .llm('ask', { tools: ['calculator'] })
        .route('route')
        .end('end')
        .chain('start', 'ask', 'route')
        .edge('route', 'ask', { when: 'vars.again == true' })
        .edge('route', 'end')
        .build(),
      { tools },
    );
    expect(compiled.startNodeId).toBe('start');
    expect(compiled.outgoing.get('route')!.map((e) => e.to)).toEqual(['ask', 'end']);
    expect(compiled.expressions.has('vars.again == true')).toBe(true);
  });

  it('no START, or several', () => {
    expectIssue(wf([end], []), 'NO_START', {});
    const two = wf(
      [start, { id: 's2', type: 'START' }, end],
      [
        { from: 'start', to: 'end' },
        { from: 's2', to: 'end' },
      ],
    );
    expectIssue(two, 'MULTIPLE_STARTS', { nodeId: 'start' });
    expect(
      issuesOf(two)
        .filter((i) => i.code === 'MULTIPLE_STARTS')
        .map((i) => i.nodeId),
    ).toEqual(['start', 's2']);
  });

  it('no reachable END', () => {
    expectIssue(
      wf(
        [start, { id: 'a', type: 'ROUTE' }, end],
        [
          { from: 'start', to: 'a' },
          { from: 'a', to: 'start' },
        ],
      ),
      'NO_REACHABLE_END',
      {},
    );
  });

  it('an edge to a missing node', () => {
    expectIssue(
      wf(
        [start, end],
        [
          { id: 'e1', from: 'start', to: 'ghost' },
          { from: 'start', to: 'end' },
        ],
      ),
      'EDGE_TO_MISSING_NODE',
      { edgeId: 'e1', path: 'edges[0].to' },
    );
  });

  it('an unreachable node', () => {
    expectIssue(
      wf(
        [start, { id: 'island', type: 'ROUTE' }, end],
        [
          { from: 'start', to: 'end' },
          { from: 'island', to: 'end' },
        ],
      ),
      'UNREACHABLE_NODE',
      { nodeId: 'island' },
    );
  });

  it('a ROUTE without a default branch', () => {
    expectIssue(
      wf(
        [start, { id: 'r', type: 'ROUTE' }, end],
        [
          { from: 'start', to: 'r' },
          { id: 'c', from: 'r', to: 'end', condition: 'vars.x == 1' },
        ],
      ),
      'ROUTE_WITHOUT_DEFAULT',
      { nodeId: 'r' },
    );
  });

  it('an expression that does not parse', () => {
    expectIssue(
      wf([start, end], [{ id: 'bad', from: 'start', to: 'end', condition: 'vars.x ==' }]),
      'INVALID_EXPRESSION',
      { edgeId: 'bad', path: 'edges[0].condition' },
    );
    expectIssue(
      wf(
        [start, { id: 'v', type: 'VARIABLE', config: { assign: { x: '1 +' } } }, end],
        [
          { from: 'start', to: 'v' },
          { from: 'v', to: 'end' },
        ],
      ),
      'INVALID_EXPRESSION',
      { nodeId: 'v', path: 'nodes[1].config.assign.x' },
    );
  });

  it('an LLM node naming a tool that is not registered', () => {
    expectIssue(
      wf(
        [start, { id: 'ask', type: 'LLM', config: { tools: ['calculator', 'weather'] } }, end],
        [
          { from: 'start', to: 'ask' },
          { from: 'ask', to: 'end' },
        ],
      ),
      'UNKNOWN_TOOL',
      { nodeId: 'ask', path: 'nodes[1].config.tools[1]' },
    );
    expectIssue(
      wf([start, end], [{ from: 'start', to: 'end' }], { initialTools: ['nope'] }),
      'UNKNOWN_TOOL',
      { path: 'initialTools[0]' },
    );
  });

  it('a duplicate node id', () => {
    expectIssue(
      wf([start, { id: 'start', type: 'ROUTE' }, end], [{ from: 'start', to: 'end' }]),
      'DUPLICATE_NODE',
      { nodeId: 'start', path: 'nodes[1]' },
    );
  });

  it('a cycle with no exit condition', () => {
    const def = wf(
      [
        start,
        { id: 'a', type: 'VARIABLE', config: { values: {} } },
        { id: 'b', type: 'VARIABLE', config: { values: {} } },
        end,
      ],
      [
        { from: 'start', to: 'a' },
        { from: 'a', to: 'b' },
        { from: 'b', to: 'a' },
        { from: 'start', to: 'end', condition: 'vars.skip' },
      ],
    );
    expectIssue(def, 'CYCLE_WITHOUT_EXIT', { nodeId: 'a' });
    // With an exit it is fine.
    const withExit = wf(def.nodes as NodeDefinition[], [
      ...def.edges,
      { from: 'b', to: 'end', condition: 'vars.done' },
    ]);
    expect(issuesOf(withExit).filter((i) => i.code === 'CYCLE_WITHOUT_EXIT')).toEqual([]);
  });

  it('reports every problem at once', () => {
    const def = wf(
      [
        { id: 'x', type: 'LLM', config: { tools: ['weather'] } },
        { id: 'x', type: 'END' },
        { id: 'r', type: 'ROUTE' },
        { id: 'q', type: 'BOGUS' } as unknown as NodeDefinition,
      ],
      [{ id: 'e', from: 'x', to: 'ghost', condition: '((' }],
    );
    const codes = new Set(issuesOf(def).map((i) => i.code));
    for (const code of [
      'NO_START',
      'NO_END',
      'DUPLICATE_NODE',
      'UNKNOWN_NODE_TYPE',
      'EDGE_TO_MISSING_NODE',
      'INVALID_EXPRESSION',
      'UNKNOWN_TOOL',
      'ROUTE_WITHOUT_DEFAULT',
    ] as const)
      expect(codes.has(code), code).toBe(true);
    let error: unknown;
    try {
      validateWorkflow(def, { tools });
    } catch (e) {
      error = e;
    }
    expect((error as WorkflowValidationError).code).toBe('WORKFLOW_INVALID');
    expect((error as Error).message).toMatch(/node "x"/);
  });

  it('checks node config, triggers and the variables schema', () => {
    expectIssue(
      wf(
        [start, { id: 't', type: 'TOOL', config: {} } as unknown as NodeDefinition, end],
        [
          { from: 'start', to: 't' },
          { from: 't', to: 'end' },
        ],
      ),
      'INVALID_NODE_CONFIG',
      { nodeId: 't' },
    );
    expectIssue(
      wf([start, end], [{ from: 'start', to: 'end' }], {
        triggers: [
          {
            id: 'g',
            when: { type: 'node-completed', nodeId: 'start' },
            action: { type: 'goto', nodeId: 'nowhere' },
          },
        ],
      }),
      'INVALID_TRIGGER',
      { path: 'triggers[0].action.nodeId' },
    );
    expectIssue(
      wf([start, end], [{ from: 'start', to: 'end' }], {
        variables: {
          schema: { type: 'object', properties: { n: { type: 'number' } } },
          defaults: { n: 'x' },
        },
      }),
      'INVALID_VARIABLES',
      { path: 'variables.defaults' },
    );
  });
});

describe('WorkflowRegistry', () => {
  const def = new WorkflowBuilder('flow', '1.0.0').start().end().chain('start', 'end').build();

  it('holds versions and returns the latest by default', () => {
    const registry = new WorkflowRegistry();
    registry.register(def);
    registry.register({ ...def, version: '1.1.0' });
    expect(registry.get('flow').version).toBe('1.1.0');
    expect(registry.get('flow', '1.0.0').version).toBe('1.0.0');
    expect(() => registry.register(def)).toThrow(/already registered/);
    expect(() => registry.get('nope')).toThrow(/not registered.*flow@1\.0\.0/);
  });
});

describe('toMermaid', () => {
  it('draws nodes by type and conditions on edges', () => {
    const chart = toMermaid(
      new WorkflowBuilder('m', '1')
        .start()
        .llm('ask', {}, { name: 'Ask "the" model' })
        .route('route')
        .end()
        .chain('start', 'ask', 'route')
        .edge('route', 'ask', { when: 'vars.n < 3' })
        .edge('route', 'end')
        .build(),
    );
    expect(chart).toBe(
      [
        'flowchart TD',
        '  n_start(["start (START)"])',
        '  n_ask["Ask #quot;the#quot; model (LLM)"]',
        '  n_route{"route (ROUTE)"}',
        '  n_end(["end (END)"])',
        '  n_start --> n_ask',
        '  n_ask --> n_route',
        '  n_route -->|"vars.n #lt; 3"| n_ask',
        '  n_route --> n_end',
        '',
      ].join('\n'),
    );
  });
});
