import { describe, expect, it } from 'vitest';
import { WorkflowValidationError } from '../errors/workflow-validation-error.js';
import { toMermaid } from './mermaid.js';
import type { EdgeDefinition, NodeDefinition, WorkflowDefinition } from './types.js';
import { validateWorkflow } from './validate-workflow.js';
import { WorkflowRegistry } from './workflow-registry.js';

function wf(nodes: NodeDefinition[], edges: EdgeDefinition[]): WorkflowDefinition {
  return { id: 'w', version: '1', nodes, edges };
}

function issues(definition: WorkflowDefinition) {
  try {
    validateWorkflow(definition);
    return [];
  } catch (error) {
    if (!(error instanceof WorkflowValidationError)) throw error;
    return error.issues.map((i) => `${i.code}@${i.nodeId ?? i.path ?? ''}`);
  }
}

const good = wf(
  [
    { id: 'start', type: 'START' },
    {
      id: 'fan',
      type: 'PARALLEL',
      config: {
        branches: [
          { name: 'a', start: 'a1' },
          { name: 'b', start: 'b1' },
        ],
        join: 'join',
      },
    },
    { id: 'a1', type: 'ROUTE' },
    { id: 'a2', type: 'ROUTE' },
    { id: 'b1', type: 'ROUTE' },
    { id: 'join', type: 'JOIN' },
    { id: 'end', type: 'END' },
  ],
  [
    { from: 'start', to: 'fan' },
    { from: 'a1', to: 'a2' },
    { from: 'a2', to: 'join' },
    { from: 'b1', to: 'join' },
    { from: 'join', to: 'end' },
  ],
);

describe('validateWorkflow: fan-outs and JOINs', () => {
  it('accepts branches that each lead to their JOIN, and routes the fan-out to its JOIN', () => {
    const compiled = validateWorkflow(good);
    expect(compiled.outgoing.get('fan')?.map((e) => e.to)).toEqual(['join']);
  });

  it('reports every problem at once', () => {
    const bad = wf(
      [
        { id: 'start', type: 'START' },
        {
          id: 'fan',
          type: 'PARALLEL',
          config: {
            branches: [
              { name: 'a', start: 'a1' },
              { name: 'b', start: 'b1' },
              { name: 'c', start: 'nowhere' },
            ],
            join: 'join',
          },
        },
        { id: 'a1', type: 'ROUTE' },
        { id: 'b1', type: 'ROUTE' },
        { id: 'join', type: 'JOIN' },
        { id: 'orphanJoin', type: 'JOIN' },
        { id: 'end', type: 'END' },
      ],
      [
        { from: 'start', to: 'fan' },
        { from: 'fan', to: 'end' },
        // a jumps into b, b leaves to END: neither stays in its branch.
        { from: 'a1', to: 'b1' },
        { from: 'b1', to: 'join', condition: 'vars.x' },
        { from: 'b1', to: 'end' },
        { from: 'join', to: 'end' },
        { from: 'orphanJoin', to: 'end' },
      ],
    );
    expect(issues(bad)).toEqual(
      expect.arrayContaining([
        'FAN_OUT_EDGE@fan',
        'BRANCH_NO_JOIN@fan',
        'BRANCH_ESCAPES@fan',
        'BRANCHES_SHARE_NODE@fan',
        'JOIN_MISMATCH@orphanJoin',
      ]),
    );
  });

  it('checks the config of the new node types', () => {
    const bad = wf(
      [
        { id: 'start', type: 'START' },
        {
          id: 'm',
          type: 'MAP',
          config: {
            items: 'vars.(',
            start: 'x',
            join: 'j',
            maxConcurrency: 0,
            conversation: 'shared',
          },
        } as never,
        { id: 'x', type: 'ROUTE' },
        {
          id: 'j',
          type: 'JOIN',
          config: { wait: { first: 0 }, onError: 'ignore', merge: 'all' },
        } as never,
        { id: 'end', type: 'END' },
      ],
      [
        { from: 'start', to: 'm' },
        { from: 'x', to: 'j' },
        { from: 'j', to: 'end' },
      ],
    );
    const found = issues(bad);
    expect(found).toEqual(
      expect.arrayContaining([
        'INVALID_EXPRESSION@m',
        'INVALID_NODE_CONFIG@m',
        'INVALID_NODE_CONFIG@j',
      ]),
    );
    expect(found.filter((i) => i === 'INVALID_NODE_CONFIG@j')).toHaveLength(3);
  });

  it('refuses a branch name or node id that would blur branch paths', () => {
    const bad = {
      ...good,
      nodes: good.nodes.map((n) =>
        n.id === 'fan'
          ? {
              ...n,
              config: {
                branches: [
                  { name: 'a/x', start: 'a1' },
                  { name: 'b', start: 'b1' },
                ],
                join: 'join',
              },
            }
          : n,
      ),
    } as WorkflowDefinition;
    expect(issues(bad)).toContain('INVALID_NODE_CONFIG@fan');
  });

  it('refuses a SUBWORKFLOW cycle through registered workflows', () => {
    const registry = new WorkflowRegistry();
    const calls = (other: string) =>
      wf(
        [
          { id: 'start', type: 'START' },
          { id: 's', type: 'SUBWORKFLOW', config: { workflow: other } },
          { id: 'end', type: 'END' },
        ],
        [
          { from: 'start', to: 's' },
          { from: 's', to: 'end' },
        ],
      );
    registry.register({ ...calls('y'), id: 'x' });
    registry.register({ ...calls('z'), id: 'y' });
    expect(() => registry.register({ ...calls('x'), id: 'z' })).toThrow(/z -> x -> y -> z/);
  });
});

describe('toMermaid with branches', () => {
  it('draws each branch as a subgraph and the fan-out edges', () => {
    const chart = toMermaid(good);
    expect(chart).toContain('subgraph n_fan_2f_a["fan: a"]');
    expect(chart).toContain('subgraph n_fan_2f_b["fan: b"]');
    expect(chart).toContain('n_fan -.-> n_a1');
    expect(chart).toContain('n_fan -.->|"join"| n_join');
    const a = chart.slice(
      chart.indexOf('subgraph n_fan_2f_a'),
      chart.indexOf('end', chart.indexOf('subgraph n_fan_2f_a')),
    );
    expect(a).toContain('n_a1');
    expect(a).toContain('n_a2');
    expect(a).not.toContain('n_b1');
  });

  it('draws a SUBWORKFLOW with the workflow it runs inside', () => {
    const registry = new WorkflowRegistry();
    registry.register(good);
    const parent = wf(
      [
        { id: 'start', type: 'START' },
        { id: 's', type: 'SUBWORKFLOW', config: { workflow: 'w' } },
        { id: 'end', type: 'END' },
      ],
      [
        { from: 'start', to: 's' },
        { from: 's', to: 'end' },
      ],
    );
    const chart = toMermaid({ ...parent, id: 'p' }, { workflows: registry });
    expect(chart).toContain('subgraph n_s["s: workflow w"]');
    expect(chart).toContain('n_s_2e_a1');
  });
});
