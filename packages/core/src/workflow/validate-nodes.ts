import type { NodeDefinition } from './types.js';
import { NODE_TYPES } from './types.js';
import { checkNodeConfig } from './validate-node-config.js';
import { type Checker, isObject, show, type ToolNames } from './workflow-checker.js';

export interface CheckedNodes {
  readonly nodes: Map<string, NodeDefinition>;
  readonly starts: readonly string[];
  readonly ends: readonly string[];
}

/** The nodes with a usable id and type, by id, each node's config checked; one START, an END. */
export function checkNodes(
  list: readonly unknown[],
  checker: Checker,
  tools: ToolNames | undefined,
): CheckedNodes {
  const nodes = new Map<string, NodeDefinition>();
  const starts: string[] = [];
  const ends: string[] = [];
  list.forEach((node: unknown, i) => {
    if (!isObject(node) || typeof node.id !== 'string' || node.id.length === 0) {
      checker.add({
        code: 'INVALID_DEFINITION',
        path: `nodes[${i}].id`,
        message: 'every node needs a non-empty string id',
      });
      return;
    }
    if (nodes.has(node.id)) {
      checker.add({
        code: 'DUPLICATE_NODE',
        nodeId: node.id,
        path: `nodes[${i}]`,
        message: `node id "${node.id}" is used more than once`,
      });
      return;
    }
    const type = node.type;
    if (typeof type !== 'string' || !(NODE_TYPES as readonly string[]).includes(type)) {
      checker.add({
        code: 'UNKNOWN_NODE_TYPE',
        nodeId: node.id,
        path: `nodes[${i}].type`,
        message: `unknown node type ${show(type)}`,
      });
      return;
    }
    nodes.set(node.id, node as unknown as NodeDefinition);
    if (type === 'START') starts.push(node.id);
    if (type === 'END') ends.push(node.id);
    checkNodeConfig({ id: node.id, type, config: node.config }, i, checker, tools);
  });
  if (starts.length === 0)
    checker.add({ code: 'NO_START', message: 'the workflow has no START node' });
  if (starts.length > 1)
    for (const id of starts)
      checker.add({
        code: 'MULTIPLE_STARTS',
        nodeId: id,
        message: `one START allowed, found ${starts.length}: ${starts.join(', ')}`,
      });
  if (ends.length === 0) checker.add({ code: 'NO_END', message: 'the workflow has no END node' });
  return { nodes, starts, ends };
}
