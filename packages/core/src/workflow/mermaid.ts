import type { NodeDefinition, WorkflowDefinition } from './types.js';

function escapeLabel(text: string): string {
  // Mermaid labels are quoted; quotes and a few characters that break its parser become entities.
  return text
    .replace(/"/g, '#quot;')
    .replace(/</g, '#lt;')
    .replace(/>/g, '#gt;')
    .replace(/\n/g, ' ');
}

function safeId(id: string): string {
  return `n_${id.replace(/[^A-Za-z0-9_]/g, (c) => `_${c.charCodeAt(0).toString(16)}_`)}`;
}

function shape(node: NodeDefinition): string {
  const label = escapeLabel(
    node.name ? `${node.name} (${node.type})` : `${node.id} (${node.type})`,
  );
  switch (node.type) {
    case 'START':
    case 'END':
      return `(["${label}"])`;
    case 'ROUTE':
      return `{"${label}"}`;
    case 'TOOL':
      return `[["${label}"]]`;
    case 'CONTEXT_PROCESSOR':
      return `[/"${label}"/]`;
    case 'USER_INTERACTION':
      return `[\\"${label}"\\]`;
    case 'VARIABLE':
      return `[("${label}")]`;
    default:
      return `["${label}"]`;
  }
}

export interface MermaidOptions {
  readonly direction?: 'TD' | 'LR';
  /** Finds the workflow a SUBWORKFLOW node runs, to draw it inside (e.g. `engine.workflows`). */
  readonly workflows?: { get(id: string, version?: string): { definition: WorkflowDefinition } };
}

/** Each branch's nodes: from its start until its JOIN, by `fanOutId/branch`. */
function branchBodies(
  definition: WorkflowDefinition,
): Map<string, { label: string; nodes: Set<string> }> {
  const next = new Map<string, string[]>();
  for (const e of definition.edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const bodies = new Map<string, { label: string; nodes: Set<string> }>();
  for (const node of definition.nodes) {
    const branches =
      node.type === 'PARALLEL'
        ? node.config.branches.map((b) => ({ key: b.name, start: b.start }))
        : node.type === 'MAP'
          ? [{ key: `each ${node.config.itemVariable ?? 'item'}`, start: node.config.start }]
          : [];
    const join = node.type === 'PARALLEL' || node.type === 'MAP' ? node.config.join : '';
    for (const b of branches) {
      const seen = new Set<string>();
      const queue = [b.start];
      while (queue.length > 0) {
        const id = queue.pop()!;
        if (id === join || seen.has(id)) continue;
        seen.add(id);
        queue.push(...(next.get(id) ?? []));
      }
      bodies.set(`${node.id}/${b.key}`, { label: `${node.id}: ${b.key}`, nodes: seen });
    }
  }
  return bodies;
}

function draw(
  definition: WorkflowDefinition,
  options: MermaidOptions,
  prefix: string,
  indent: string,
  depth: number,
): string[] {
  const id = (node: string) => safeId(prefix + node);
  const lines: string[] = [];
  const bodies = branchBodies(definition);
  // A node belongs to its innermost branch: the smallest body holding it.
  const owner = new Map<string, string>();
  for (const [key, body] of [...bodies].sort((a, b) => b[1].nodes.size - a[1].nodes.size))
    for (const node of body.nodes) owner.set(node, key);
  const parentOf = (key: string): string | undefined => {
    const fanOut = key.slice(0, key.lastIndexOf('/'));
    return owner.get(fanOut);
  };
  const drawNode = (node: NodeDefinition, pad: string) => {
    if (node.type === 'SUBWORKFLOW' && options.workflows && depth < 4) {
      let child: WorkflowDefinition | undefined;
      try {
        child = options.workflows.get(node.config.workflow, node.config.version).definition;
      } catch {
        child = undefined;
      }
      if (child) {
        lines.push(
          `${pad}subgraph ${id(node.id)}["${escapeLabel(`${node.id}: workflow ${child.id}`)}"]`,
        );
        lines.push(...draw(child, options, `${prefix}${node.id}.`, `${pad}  `, depth + 1));
        lines.push(`${pad}end`);
        return;
      }
    }
    lines.push(`${pad}${id(node.id)}${shape(node)}`);
  };
  const drawGroup = (key: string | undefined, pad: string) => {
    for (const node of definition.nodes) if (owner.get(node.id) === key) drawNode(node, pad);
    for (const [inner, body] of bodies)
      if (parentOf(inner) === key) {
        lines.push(`${pad}subgraph ${safeId(`${prefix}${inner}`)}["${escapeLabel(body.label)}"]`);
        drawGroup(inner, `${pad}  `);
        lines.push(`${pad}end`);
      }
  };
  drawGroup(undefined, indent);
  for (const edge of definition.edges) {
    const text = edge.label ?? edge.condition ?? (edge.default ? 'default' : undefined);
    const arrow = text === undefined ? '-->' : `-->|"${escapeLabel(text)}"|`;
    lines.push(`${indent}${id(edge.from)} ${arrow} ${id(edge.to)}`);
  }
  for (const node of definition.nodes) {
    if (node.type !== 'PARALLEL' && node.type !== 'MAP') continue;
    const starts =
      node.type === 'PARALLEL' ? node.config.branches.map((b) => b.start) : [node.config.start];
    for (const start of starts) lines.push(`${indent}${id(node.id)} -.-> ${id(start)}`);
    lines.push(`${indent}${id(node.id)} -.->|"join"| ${id(node.config.join)}`);
  }
  return lines;
}

/**
 * Draws a workflow as a Mermaid flowchart: node shapes by type, conditions on the edges, each
 * branch of a PARALLEL or MAP as a subgraph, and (given `workflows`) each SUBWORKFLOW's workflow
 * drawn inside its node.
 */
export function toMermaid(definition: WorkflowDefinition, options: MermaidOptions = {}): string {
  const lines = [
    `flowchart ${options.direction ?? 'TD'}`,
    ...draw(definition, options, '', '  ', 0),
  ];
  return `${lines.join('\n')}\n`;
}
