import type { CompiledEdge } from './compiled-workflow.js';
import type { NodeDefinition } from './types.js';
import { type Checker, type IssueWhere, isObject } from './workflow-checker.js';

// A wait's time, once evaluated, must fit in a Date (±8.64e15 ms from 1970).
const MAX_WAIT_MS = 8.64e15;

/** A number of milliseconds (a literal `min` or more), or an expression that gives one when run. */
function checkMs(value: unknown, field: string, where: IssueWhere, checker: Checker, min: number) {
  if (value === undefined) return;
  if (typeof value === 'string') {
    checker.expression(value, where);
    return;
  }
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > MAX_WAIT_MS)
    checker.add({
      ...where,
      code: 'INVALID_NODE_CONFIG',
      message: `${field} must be milliseconds from ${min} to ${MAX_WAIT_MS} or an expression giving them`,
    });
}

/**
 * The config of SLEEP and WAIT_FOR_EVENT nodes and the `timeout` / `onTimeout` of every wait
 * (USER_INTERACTION too). `onTimeout` must name a node: it is an edge of its own.
 */
export function checkWaitConfig(
  node: { readonly id: string; readonly type: string; readonly config?: unknown },
  index: number,
  checker: Checker,
): void {
  if (node.type !== 'SLEEP' && node.type !== 'WAIT_FOR_EVENT' && node.type !== 'USER_INTERACTION')
    return;
  const base = `nodes[${index}].config`;
  const at = (field: string): IssueWhere => ({ nodeId: node.id, path: `${base}.${field}` });
  const bad = (message: string, where: IssueWhere = { nodeId: node.id, path: base }) =>
    checker.add({ ...where, code: 'INVALID_NODE_CONFIG', message });
  if (node.config !== undefined && !isObject(node.config)) return; // reported by checkNodeConfig
  const c = node.config ?? {};
  if (node.type === 'SLEEP') {
    if ((c.duration === undefined) === (c.until === undefined))
      bad(
        'SLEEP needs exactly one of config.duration (ms) and config.until (an ISO time expression)',
      );
    checkMs(c.duration, 'duration', at('duration'), checker, 0);
    if (c.until !== undefined) checker.expression(c.until, at('until'));
    if (c.timeout !== undefined || c.onTimeout !== undefined)
      bad('SLEEP takes no timeout: it ends when its time comes');
    return;
  }
  if (node.type === 'WAIT_FOR_EVENT') {
    if (typeof c.event !== 'string' || c.event.length === 0)
      bad('WAIT_FOR_EVENT needs config.event (a non-empty event name)', at('event'));
    if (c.match !== undefined) checker.expression(c.match, at('match'));
    if (c.variable !== undefined && (typeof c.variable !== 'string' || c.variable.length === 0))
      bad('variable must be a non-empty string', at('variable'));
    if (c.addMessage !== undefined && typeof c.addMessage !== 'boolean')
      bad('addMessage must be a boolean', at('addMessage'));
  }
  checkMs(c.timeout, 'timeout', at('timeout'), checker, 1);
  if (c.onTimeout !== undefined) {
    if (typeof c.onTimeout !== 'string' || c.onTimeout.length === 0)
      bad('onTimeout must name a node', at('onTimeout'));
    else if (c.timeout === undefined) bad('onTimeout needs a timeout', at('onTimeout'));
  }
}

/**
 * The graph with each wait's `onTimeout` as one more edge: the target must exist, and counts as
 * reachable (and as a way out of a cycle) through it.
 */
export function withTimeoutEdges(
  nodes: ReadonlyMap<string, NodeDefinition>,
  outgoing: ReadonlyMap<string, readonly CompiledEdge[]>,
  checker: Checker,
): ReadonlyMap<string, readonly CompiledEdge[]> {
  let graph: Map<string, readonly CompiledEdge[]> | undefined;
  for (const node of nodes.values()) {
    if (node.type !== 'USER_INTERACTION' && node.type !== 'WAIT_FOR_EVENT') continue;
    const to = node.config?.onTimeout;
    if (typeof to !== 'string' || to.length === 0) continue;
    if (!nodes.has(to)) {
      checker.add({
        code: 'EDGE_TO_MISSING_NODE',
        nodeId: node.id,
        message: `onTimeout goes to "${to}", which is not a node of the workflow`,
      });
      continue;
    }
    graph ??= new Map(outgoing);
    const edge: CompiledEdge = {
      id: `${node.id}~timeout`,
      from: node.id,
      to,
      isDefault: false,
      definition: { from: node.id, to },
    };
    graph.set(node.id, [...(graph.get(node.id) ?? []), edge]);
  }
  return graph ?? outgoing;
}
