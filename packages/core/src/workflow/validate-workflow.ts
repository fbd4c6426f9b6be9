import { SkeinError } from '@skein/conversation';
import { Ajv } from 'ajv';
import {
  type WorkflowIssue,
  WorkflowValidationError,
} from '../errors/workflow-validation-error.js';
import type { CompiledExpression } from '../expressions/ast.js';
import { compileExpression } from '../expressions/parser.js';
import { type CompiledTemplate, compileTemplate } from '../expressions/template.js';
import type { CompiledEdge, CompiledWorkflow } from './compiled-workflow.js';
import {
  type ContextProcessorOperation,
  NODE_TYPES,
  type NodeDefinition,
  type WorkflowDefinition,
} from './types.js';

export interface ValidateOptions {
  /** Where tool names are checked (a ToolRegistry fits). Without it, tool names are not checked. */
  readonly tools?: { has(name: string): boolean };
}

const CONTEXT_OPERATIONS = new Set(['clear', 'truncate', 'insert', 'replace', 'filter', 'batch']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Collects issues and parsed expressions while walking a definition. */
class Checker {
  readonly issues: WorkflowIssue[] = [];
  readonly expressions = new Map<string, CompiledExpression>();
  readonly templates = new Map<string, CompiledTemplate>();

  add(issue: WorkflowIssue): void {
    this.issues.push(issue);
  }

  expression(
    source: unknown,
    where: Omit<WorkflowIssue, 'code' | 'message'>,
  ): CompiledExpression | undefined {
    if (typeof source !== 'string') {
      this.add({ ...where, code: 'INVALID_EXPRESSION', message: 'expression must be a string' });
      return undefined;
    }
    const cached = this.expressions.get(source);
    if (cached) return cached;
    try {
      const compiled = compileExpression(source);
      this.expressions.set(source, compiled);
      return compiled;
    } catch (error) {
      this.add({ ...where, code: 'INVALID_EXPRESSION', message: (error as Error).message });
      return undefined;
    }
  }

  template(source: unknown, where: Omit<WorkflowIssue, 'code' | 'message'>): void {
    if (typeof source !== 'string') {
      this.add({ ...where, code: 'INVALID_NODE_CONFIG', message: 'template must be a string' });
      return;
    }
    if (this.templates.has(source)) return;
    try {
      this.templates.set(source, compileTemplate(source));
    } catch (error) {
      this.add({ ...where, code: 'INVALID_EXPRESSION', message: (error as Error).message });
    }
  }

  tool(
    name: unknown,
    tools: ValidateOptions['tools'],
    where: Omit<WorkflowIssue, 'code' | 'message'>,
  ): void {
    if (typeof name !== 'string' || name.length === 0) {
      this.add({
        ...where,
        code: 'INVALID_NODE_CONFIG',
        message: 'tool name must be a non-empty string',
      });
      return;
    }
    if (tools && !tools.has(name))
      this.add({ ...where, code: 'UNKNOWN_TOOL', message: `tool "${name}" is not registered` });
  }
}

function checkContextOperation(
  op: unknown,
  checker: Checker,
  where: { nodeId?: string; path: string },
): void {
  if (!isObject(op) || typeof op.operation !== 'string' || !CONTEXT_OPERATIONS.has(op.operation)) {
    checker.add({
      ...where,
      code: 'INVALID_NODE_CONFIG',
      message: `context operation must be one of ${[...CONTEXT_OPERATIONS].join(', ')}`,
    });
    return;
  }
  const o = op as ContextProcessorOperation;
  const bad = (message: string) => checker.add({ ...where, code: 'INVALID_NODE_CONFIG', message });
  const count = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0;
  switch (o.operation) {
    case 'truncate':
      if (o.maxTokens === undefined && o.count === undefined)
        bad('truncate needs count or maxTokens');
      if (o.maxTokens !== undefined && !count(o.maxTokens))
        bad('maxTokens must be a non-negative integer');
      if (o.count !== undefined && !count(o.count)) bad('count must be a non-negative integer');
      break;
    case 'insert':
    case 'replace':
      if (!count(o.position)) bad('position must be a non-negative integer');
      if (!isObject(o.message)) bad('message must be an object');
      break;
    case 'batch':
      if (o.action !== 'start' && o.action !== 'rollback')
        bad('batch action must be start or rollback');
      if (o.action === 'rollback' && !count(o.batch)) bad('rollback needs a batch number');
      break;
    default:
      break;
  }
}

function checkNodeConfig(
  node: NodeDefinition,
  index: number,
  checker: Checker,
  options: ValidateOptions,
): void {
  const where = { nodeId: node.id, path: `nodes[${index}].config` };
  const config = (node as { config?: unknown }).config;
  if (config !== undefined && !isObject(config)) {
    checker.add({ ...where, code: 'INVALID_NODE_CONFIG', message: 'config must be an object' });
    return;
  }
  switch (node.type) {
    case 'LLM': {
      const c = node.config ?? {};
      if (c.systemPrompt !== undefined)
        checker.template(c.systemPrompt, { ...where, path: `${where.path}.systemPrompt` });
      if (c.prompt !== undefined)
        checker.template(c.prompt, { ...where, path: `${where.path}.prompt` });
      if (c.tools !== undefined) {
        if (!Array.isArray(c.tools))
          checker.add({
            ...where,
            code: 'INVALID_NODE_CONFIG',
            message: 'tools must be an array of names',
          });
        else
          c.tools.forEach((t, i) => {
            checker.tool(t, options.tools, { ...where, path: `${where.path}.tools[${i}]` });
          });
      }
      if (
        c.maxToolRounds !== undefined &&
        !(Number.isInteger(c.maxToolRounds) && c.maxToolRounds >= 1)
      )
        checker.add({
          ...where,
          code: 'INVALID_NODE_CONFIG',
          message: 'maxToolRounds must be an integer >= 1',
        });
      if (
        c.toolConcurrency !== undefined &&
        !(Number.isInteger(c.toolConcurrency) && c.toolConcurrency >= 1)
      )
        checker.add({
          ...where,
          code: 'INVALID_NODE_CONFIG',
          message: 'toolConcurrency must be an integer >= 1',
        });
      break;
    }
    case 'TOOL': {
      if (!isObject(config)) {
        checker.add({
          ...where,
          code: 'INVALID_NODE_CONFIG',
          message: 'TOOL node needs config.tool',
        });
        break;
      }
      checker.tool(node.config.tool, options.tools, { ...where, path: `${where.path}.tool` });
      for (const [key, value] of Object.entries(node.config.args ?? {}))
        if (typeof value === 'string')
          checker.template(value, { ...where, path: `${where.path}.args.${key}` });
      break;
    }
    case 'CONTEXT_PROCESSOR': {
      const ops = isObject(config) ? node.config.operations : undefined;
      if (!Array.isArray(ops) || ops.length === 0) {
        checker.add({
          ...where,
          code: 'INVALID_NODE_CONFIG',
          message: 'CONTEXT_PROCESSOR needs config.operations (non-empty)',
        });
        break;
      }
      ops.forEach((op, i) => {
        checkContextOperation(op, checker, { ...where, path: `${where.path}.operations[${i}]` });
      });
      break;
    }
    case 'VARIABLE': {
      if (!isObject(config)) {
        checker.add({
          ...where,
          code: 'INVALID_NODE_CONFIG',
          message: 'VARIABLE node needs config',
        });
        break;
      }
      for (const [name, source] of Object.entries(node.config.assign ?? {}))
        checker.expression(source, { ...where, path: `${where.path}.assign.${name}` });
      if (node.config.message)
        checker.template(node.config.message.content, {
          ...where,
          path: `${where.path}.message.content`,
        });
      break;
    }
    case 'USER_INTERACTION':
      if (node.config?.prompt !== undefined)
        checker.template(node.config.prompt, { ...where, path: `${where.path}.prompt` });
      break;
    case 'END':
      if (node.config?.output !== undefined)
        checker.expression(node.config.output, { ...where, path: `${where.path}.output` });
      break;
    default:
      break;
  }
}

/** Strongly connected components (Tarjan), iterative so deep graphs cannot overflow the stack. */
function stronglyConnected(
  ids: readonly string[],
  next: (id: string) => readonly string[],
): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const root of ids) {
    if (index.has(root)) continue;
    const work: { id: string; edge: number }[] = [{ id: root, edge: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = next(frame.id);
      if (frame.edge < targets.length) {
        const to = targets[frame.edge++]!;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ id: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.id, Math.min(low.get(frame.id)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.id, Math.min(low.get(parent.id)!, low.get(frame.id)!));
      if (low.get(frame.id) === index.get(frame.id)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.id);
        components.push(component);
      }
    }
  }
  return components;
}

function reachableFrom(start: string, next: (id: string) => readonly string[]): Set<string> {
  const seen = new Set<string>([start]);
  const queue = [start];
  while (queue.length > 0) {
    for (const to of next(queue.pop()!)) {
      if (!seen.has(to)) {
        seen.add(to);
        queue.push(to);
      }
    }
  }
  return seen;
}

/**
 * Checks a workflow and returns its compiled form, or throws one `WorkflowValidationError` listing
 * every problem found, each naming its node, edge or field.
 */
export function validateWorkflow(
  definition: WorkflowDefinition,
  options: ValidateOptions = {},
): CompiledWorkflow {
  const checker = new Checker();
  const def = definition as unknown;
  const workflowId = isObject(def) && typeof def.id === 'string' ? def.id : '(unnamed)';
  if (!isObject(def))
    throw new WorkflowValidationError(workflowId, [
      { code: 'INVALID_DEFINITION', message: 'a workflow must be an object' },
    ]);
  if (typeof def.id !== 'string' || def.id.length === 0)
    checker.add({
      code: 'INVALID_DEFINITION',
      path: 'id',
      message: 'id must be a non-empty string',
    });
  if (typeof def.version !== 'string' || def.version.length === 0)
    checker.add({
      code: 'INVALID_DEFINITION',
      path: 'version',
      message: 'version must be a non-empty string',
    });
  if (!Array.isArray(def.nodes) || !Array.isArray(def.edges)) {
    checker.add({
      code: 'INVALID_DEFINITION',
      path: Array.isArray(def.nodes) ? 'edges' : 'nodes',
      message: 'nodes and edges must be arrays',
    });
    throw new WorkflowValidationError(workflowId, checker.issues);
  }

  // Nodes.
  const nodes = new Map<string, NodeDefinition>();
  const starts: string[] = [];
  const ends: string[] = [];
  definition.nodes.forEach((node, i) => {
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
    if (!NODE_TYPES.includes(node.type)) {
      checker.add({
        code: 'UNKNOWN_NODE_TYPE',
        nodeId: node.id,
        path: `nodes[${i}].type`,
        message: `unknown node type ${JSON.stringify(node.type)}`,
      });
      return;
    }
    nodes.set(node.id, node);
    if (node.type === 'START') starts.push(node.id);
    if (node.type === 'END') ends.push(node.id);
    checkNodeConfig(node, i, checker, options);
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

  // Edges.
  const outgoing = new Map<string, CompiledEdge[]>();
  const edgeIds = new Set<string>();
  definition.edges.forEach((edge, i) => {
    if (!isObject(edge)) {
      checker.add({
        code: 'INVALID_DEFINITION',
        path: `edges[${i}]`,
        message: 'an edge must be an object',
      });
      return;
    }
    const id =
      typeof edge.id === 'string' && edge.id
        ? edge.id
        : `${String(edge.from)}->${String(edge.to)}#${i}`;
    if (edgeIds.has(id))
      checker.add({
        code: 'DUPLICATE_EDGE',
        edgeId: id,
        path: `edges[${i}].id`,
        message: `edge id "${id}" is used more than once`,
      });
    edgeIds.add(id);
    let ok = true;
    if (!nodes.has(edge.from)) {
      checker.add({
        code: 'EDGE_FROM_MISSING_NODE',
        edgeId: id,
        path: `edges[${i}].from`,
        message: `edge starts at missing node "${String(edge.from)}"`,
      });
      ok = false;
    }
    if (!nodes.has(edge.to)) {
      checker.add({
        code: 'EDGE_TO_MISSING_NODE',
        edgeId: id,
        path: `edges[${i}].to`,
        message: `edge leads to missing node "${String(edge.to)}"`,
      });
      ok = false;
    }
    if (nodes.get(edge.from)?.type === 'END')
      checker.add({
        code: 'END_HAS_OUTGOING',
        edgeId: id,
        nodeId: edge.from,
        message: 'END nodes cannot have outgoing edges',
      });
    const condition =
      edge.condition === undefined
        ? undefined
        : checker.expression(edge.condition, { edgeId: id, path: `edges[${i}].condition` });
    if (!ok) return;
    const compiled: CompiledEdge = {
      id,
      from: edge.from,
      to: edge.to,
      ...(condition ? { condition } : {}),
      isDefault: edge.default === true || edge.condition === undefined,
      definition: edge,
    };
    const list = outgoing.get(edge.from) ?? [];
    list.push(compiled);
    outgoing.set(edge.from, list);
  });
  // Conditional edges are tried in declaration order, the default last.
  for (const [id, list] of outgoing) {
    const defaults = list.filter((e) => e.isDefault);
    if (defaults.length > 1)
      checker.add({
        code: 'MULTIPLE_DEFAULTS',
        nodeId: id,
        message: `node has ${defaults.length} default edges (${defaults.map((e) => e.id).join(', ')}); only the first could ever be taken`,
      });
    outgoing.set(id, [...list.filter((e) => !e.isDefault), ...defaults]);
  }
  for (const node of nodes.values()) {
    const out = outgoing.get(node.id) ?? [];
    if (node.type === 'ROUTE' && !out.some((e) => e.isDefault))
      checker.add({
        code: 'ROUTE_WITHOUT_DEFAULT',
        nodeId: node.id,
        message:
          'ROUTE node needs a default branch (an edge without condition or with default: true)',
      });
    if (node.type !== 'END' && out.length === 0)
      checker.add({
        code: 'DEAD_END',
        nodeId: node.id,
        message: 'node has no outgoing edge and is not an END',
      });
  }

  // Reachability and loops.
  const next = (id: string) => (outgoing.get(id) ?? []).map((e) => e.to);
  const start = starts[0];
  if (start) {
    const reachable = reachableFrom(start, next);
    for (const id of nodes.keys())
      if (!reachable.has(id))
        checker.add({
          code: 'UNREACHABLE_NODE',
          nodeId: id,
          message: 'node cannot be reached from START',
        });
    if (ends.length > 0 && !ends.some((id) => reachable.has(id)))
      checker.add({ code: 'NO_REACHABLE_END', message: 'no END node can be reached from START' });
    for (const component of stronglyConnected([...reachable], next)) {
      const members = new Set(component);
      const first = component[0]!;
      const isCycle = component.length > 1 || next(first).includes(first);
      if (!isCycle) continue;
      const exits = component.some((id) => next(id).some((to) => !members.has(to)));
      if (!exits)
        checker.add({
          code: 'CYCLE_WITHOUT_EXIT',
          nodeId: [...component].sort()[0],
          message: `nodes ${[...component].sort().join(', ')} form a cycle with no edge leaving it`,
        });
    }
  }

  // Tools, triggers, variables.
  (definition.initialTools ?? []).forEach((name, i) => {
    checker.tool(name, options.tools, { path: `initialTools[${i}]` });
  });
  const triggerIds = new Set<string>();
  (definition.triggers ?? []).forEach((trigger, i) => {
    const path = `triggers[${i}]`;
    if (
      !isObject(trigger) ||
      typeof trigger.id !== 'string' ||
      !isObject(trigger.when) ||
      !isObject(trigger.action)
    ) {
      checker.add({
        code: 'INVALID_TRIGGER',
        path,
        message: 'a trigger needs id, when and action',
      });
      return;
    }
    if (triggerIds.has(trigger.id))
      checker.add({
        code: 'INVALID_TRIGGER',
        path: `${path}.id`,
        message: `trigger id "${trigger.id}" is used more than once`,
      });
    triggerIds.add(trigger.id);
    if (trigger.when.type === 'expression')
      checker.expression(trigger.when.expression, { path: `${path}.when.expression` });
    if (trigger.when.type === 'node-completed' && !nodes.has(trigger.when.nodeId))
      checker.add({
        code: 'INVALID_TRIGGER',
        path: `${path}.when.nodeId`,
        message: `trigger watches missing node "${trigger.when.nodeId}"`,
      });
    const action = trigger.action;
    if (action.type === 'goto' && !nodes.has(action.nodeId))
      checker.add({
        code: 'INVALID_TRIGGER',
        path: `${path}.action.nodeId`,
        message: `trigger jumps to missing node "${action.nodeId}"`,
      });
    if (action.type === 'set-variable')
      checker.expression(action.expression, { path: `${path}.action.expression` });
    if (action.type === 'context')
      checkContextOperation(action.operation, checker, { path: `${path}.action.operation` });
  });
  if (definition.variables?.schema !== undefined) {
    try {
      const ajv = new Ajv({ allErrors: true, strict: false });
      const validate = ajv.compile(definition.variables.schema);
      if (definition.variables.defaults !== undefined && !validate(definition.variables.defaults))
        checker.add({
          code: 'INVALID_VARIABLES',
          path: 'variables.defaults',
          message: `defaults do not match the schema: ${ajv.errorsText(validate.errors)}`,
        });
    } catch (error) {
      checker.add({
        code: 'INVALID_VARIABLES',
        path: 'variables.schema',
        message: `schema does not compile: ${SkeinError.isInstance(error) ? error.message : (error as Error).message}`,
      });
    }
  }

  if (checker.issues.length > 0) throw new WorkflowValidationError(workflowId, checker.issues);
  return {
    id: definition.id,
    version: definition.version,
    definition,
    startNodeId: start!,
    nodes,
    outgoing,
    expressions: checker.expressions,
    templates: checker.templates,
  };
}
