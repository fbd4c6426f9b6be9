import type { CompiledEdge } from './compiled-workflow.js';
import { reachableFrom } from './graph.js';
import type { NodeDefinition } from './types.js';
import type { Checker } from './workflow-checker.js';

/** A PARALLEL or MAP node with its branches' start nodes and its JOIN. */
interface FanOut {
  readonly id: string;
  readonly join: string;
  readonly branches: readonly { readonly name: string; readonly start: string }[];
}

function fanOuts(nodes: ReadonlyMap<string, NodeDefinition>): FanOut[] {
  const found: FanOut[] = [];
  for (const node of nodes.values()) {
    if (node.type === 'PARALLEL' && Array.isArray(node.config?.branches))
      found.push({
        id: node.id,
        join: node.config.join,
        branches: node.config.branches.filter((b) => typeof b?.start === 'string'),
      });
    else if (node.type === 'MAP' && typeof node.config?.start === 'string')
      found.push({
        id: node.id,
        join: node.config.join,
        branches: [{ name: 'body', start: node.config.start }],
      });
  }
  return found;
}

function edgeTo(from: string, to: string): CompiledEdge {
  const id = `${from}=>${to}`;
  return { id, from, to, isDefault: true, definition: { id, from, to } };
}

/**
 * Checks fan-outs and their JOINs: each PARALLEL/MAP names existing branch starts and its own JOIN,
 * declares no edges (it goes on to its JOIN), each branch reaches its JOIN, no branch shares a node
 * with another or reaches a node outside its branch. Adds the PARALLEL/MAP → JOIN edge to
 * `outgoing` and returns the edges to analyse reachability with (branch starts included).
 */
export function checkBranches(
  nodes: ReadonlyMap<string, NodeDefinition>,
  outgoing: Map<string, CompiledEdge[]>,
  start: string | undefined,
  checker: Checker,
): Map<string, CompiledEdge[]> {
  const all = fanOuts(nodes);
  const analysis = new Map(outgoing);
  if (all.length === 0) {
    for (const node of nodes.values())
      if (node.type === 'JOIN')
        checker.add({
          code: 'JOIN_MISMATCH',
          nodeId: node.id,
          message: 'JOIN belongs to no PARALLEL or MAP node',
        });
    return analysis;
  }
  const owners = new Map<string, string[]>();
  for (const f of all) {
    if ((outgoing.get(f.id) ?? []).length > 0)
      checker.add({
        code: 'FAN_OUT_EDGE',
        nodeId: f.id,
        message: `${nodes.get(f.id)!.type} goes on to its JOIN "${f.join}" by itself: declare no edges from it`,
      });
    const join = nodes.get(f.join);
    if (join?.type !== 'JOIN')
      checker.add({
        code: 'JOIN_MISMATCH',
        nodeId: f.id,
        message: `join "${f.join}" is not a JOIN node of this workflow`,
      });
    else owners.set(f.join, [...(owners.get(f.join) ?? []), f.id]);
    for (const b of f.branches)
      if (!nodes.has(b.start))
        checker.add({
          code: 'BRANCH_NO_JOIN',
          nodeId: f.id,
          message: `branch "${b.name}" starts at missing node "${b.start}"`,
        });
    outgoing.set(f.id, join?.type === 'JOIN' ? [edgeTo(f.id, f.join)] : []);
    analysis.set(f.id, [
      ...(outgoing.get(f.id) ?? []),
      ...f.branches.filter((b) => nodes.has(b.start)).map((b) => edgeTo(f.id, b.start)),
    ]);
  }
  for (const node of nodes.values())
    if (node.type === 'JOIN') {
      const by = owners.get(node.id) ?? [];
      if (by.length !== 1)
        checker.add({
          code: 'JOIN_MISMATCH',
          nodeId: node.id,
          message:
            by.length === 0
              ? 'JOIN belongs to no PARALLEL or MAP node'
              : `JOIN is shared by ${by.join(', ')}; each fan-out needs its own`,
        });
    }

  const targets = (id: string) => (outgoing.get(id) ?? []).map((e) => e.to);
  const mainLine = start ? reachableFrom(start, targets) : new Set<string>();
  for (const f of all) {
    if (!nodes.has(f.join)) continue;
    const after = reachableFrom(f.join, targets);
    const bodies: Set<string>[] = [];
    for (const b of f.branches) {
      if (!nodes.has(b.start)) continue;
      // Inside a branch, a nested fan-out leads into its own branches too.
      const body = reachableFrom(b.start, (id) =>
        id === f.join ? [] : (analysis.get(id) ?? []).map((e) => e.to),
      );
      if (!body.has(f.join))
        checker.add({
          code: 'BRANCH_NO_JOIN',
          nodeId: f.id,
          message: `branch "${b.name}" never reaches its JOIN "${f.join}"`,
        });
      body.delete(f.join);
      for (const id of body) {
        const node = nodes.get(id);
        const outside =
          id === f.id ||
          mainLine.has(id) ||
          after.has(id) ||
          node?.type === 'START' ||
          node?.type === 'END';
        if (outside)
          checker.add({
            code: 'BRANCH_ESCAPES',
            nodeId: f.id,
            message: `branch "${b.name}" reaches "${id}", which is outside the branch (a branch may only lead to its JOIN "${f.join}")`,
          });
      }
      for (const [i, other] of bodies.entries()) {
        const shared = [...body].filter((id) => other.has(id));
        if (shared.length > 0)
          checker.add({
            code: 'BRANCHES_SHARE_NODE',
            nodeId: f.id,
            message: `branches "${f.branches[i]!.name}" and "${b.name}" share ${shared.map((id) => `"${id}"`).join(', ')}`,
          });
      }
      bodies.push(body);
    }
  }
  return analysis;
}
