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

/** Draws a workflow as a Mermaid flowchart: node shapes by type, conditions on the edges. */
export function toMermaid(
  definition: WorkflowDefinition,
  options: { direction?: 'TD' | 'LR' } = {},
): string {
  const lines = [`flowchart ${options.direction ?? 'TD'}`];
  for (const node of definition.nodes) lines.push(`  ${safeId(node.id)}${shape(node)}`);
  for (const edge of definition.edges) {
    const text = edge.label ?? edge.condition ?? (edge.default ? 'default' : undefined);
    const arrow = text === undefined ? '-->' : `-->|"${escapeLabel(text)}"|`;
    lines.push(`  ${safeId(edge.from)} ${arrow} ${safeId(edge.to)}`);
  }
  return `${lines.join('\n')}\n`;
}
