import { describe, expect, it } from 'vitest';
import type { WorkflowValidationError } from '../errors/workflow-validation-error.js';
import type { NodeDefinition } from './types.js';
import { validateWorkflow } from './validate-workflow.js';

function issuesOf(nodes: unknown[]) {
  const ids = (nodes as { id: string }[]).map((n) => n.id);
  const chain = ['start', ...ids, 'end'];
  try {
    validateWorkflow({
      id: 'w',
      version: '1',
      nodes: [
        { id: 'start', type: 'START' },
        ...(nodes as NodeDefinition[]),
        { id: 'end', type: 'END' },
      ],
      edges: chain.slice(1).map((to, i) => ({ from: chain[i]!, to })),
    });
    return [];
  } catch (error) {
    return (error as WorkflowValidationError).issues.map((i) => [i.code, i.nodeId, i.path]);
  }
}

describe('validating waits', () => {
  it('reports every bad SLEEP, WAIT_FOR_EVENT and timeout at once, with node and path', () => {
    expect(
      issuesOf([
        { id: 'both', type: 'SLEEP', config: { duration: 5, until: 'vars.t' } },
        { id: 'neither', type: 'SLEEP', config: {} },
        { id: 'negative', type: 'SLEEP', config: { duration: -1 } },
        { id: 'parse', type: 'SLEEP', config: { until: 'vars.(' } },
        { id: 'nameless', type: 'WAIT_FOR_EVENT', config: { match: 'event.x ==' } },
        { id: 'orphan', type: 'WAIT_FOR_EVENT', config: { event: 'e', onTimeout: 'end' } },
        { id: 'nowhere', type: 'USER_INTERACTION', config: { timeout: 5, onTimeout: 'gone' } },
        { id: 'zero', type: 'USER_INTERACTION', config: { timeout: 0 } },
      ]),
    ).toEqual([
      ['INVALID_NODE_CONFIG', 'both', 'nodes[1].config'],
      ['INVALID_NODE_CONFIG', 'neither', 'nodes[2].config'],
      ['INVALID_NODE_CONFIG', 'negative', 'nodes[3].config.duration'],
      ['INVALID_EXPRESSION', 'parse', 'nodes[4].config.until'],
      ['INVALID_NODE_CONFIG', 'nameless', 'nodes[5].config.event'],
      ['INVALID_EXPRESSION', 'nameless', 'nodes[5].config.match'],
      ['INVALID_NODE_CONFIG', 'orphan', 'nodes[6].config.onTimeout'],
      ['INVALID_NODE_CONFIG', 'zero', 'nodes[8].config.timeout'],
      ['EDGE_TO_MISSING_NODE', 'nowhere', undefined],
    ]);
  });

  it('accepts waits with expressions and an onTimeout reached only through it', () => {
    expect(
      issuesOf([
        { id: 'nap', type: 'SLEEP', config: { duration: 'vars.ms * 2' } },
        {
          id: 'hook',
          type: 'WAIT_FOR_EVENT',
          config: { event: 'e', timeout: 'vars.t', onTimeout: 'end' },
        },
      ]),
    ).toEqual([]);
  });
});
