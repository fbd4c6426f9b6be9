import { checkAnswerSchema } from './validate-answer-schema.js';
import { checkBranchNodeConfig } from './validate-branch-config.js';
import { checkContextOperation } from './validate-context-operation.js';
import { checkGuardrailNames } from './validate-guardrails.js';
import { checkLLMNumbers } from './validate-numbers.js';
import { checkOutputConfig } from './validate-output-config.js';
import { checkCompact } from './validate-summary.js';
import { checkWaitConfig } from './validate-waits.js';
import { type Checker, isObject, type ToolNames } from './workflow-checker.js';

const ROLES = new Set(['system', 'user', 'assistant']);

function isToolChoice(value: unknown): boolean {
  if (value === 'auto' || value === 'none' || value === 'required') return true;
  return isObject(value) && typeof value.name === 'string' && value.name.length > 0;
}

/**
 * The config of one node whose type is known: templates and expressions parse, tool names are
 * registered, numbers are in range, and each field has the kind the node handler reads.
 */
export function checkNodeConfig(
  node: { readonly id: string; readonly type: string; readonly config?: unknown },
  index: number,
  checker: Checker,
  tools: ToolNames | undefined,
): void {
  const where = { nodeId: node.id, path: `nodes[${index}].config` };
  const at = (field: string) => ({ ...where, path: `${where.path}.${field}` });
  const bad = (message: string, path = where.path) =>
    checker.add({ ...where, path, code: 'INVALID_NODE_CONFIG', message });
  const config = node.config;
  if (config !== undefined && !isObject(config)) {
    bad('config must be an object');
    return;
  }
  const c = config ?? {};
  // Fields the handlers read as names or flags: a wrong kind must not reach them.
  const name = (field: string) => {
    const value = c[field];
    if (value !== undefined && (typeof value !== 'string' || value.length === 0))
      bad(`${field} must be a non-empty string`, at(field).path);
  };
  const flag = (field: string) => {
    if (c[field] !== undefined && typeof c[field] !== 'boolean')
      bad(`${field} must be a boolean`, at(field).path);
  };
  switch (node.type) {
    case 'LLM': {
      if (c.systemPrompt !== undefined) checker.template(c.systemPrompt, at('systemPrompt'));
      if (c.prompt !== undefined) checker.template(c.prompt, at('prompt'));
      if (c.tools !== undefined) {
        if (!Array.isArray(c.tools)) bad('tools must be an array of names', at('tools').path);
        else
          c.tools.forEach((t: unknown, i) => {
            checker.tool(t, tools, at(`tools[${i}]`));
          });
      }
      checkGuardrailNames(c.guardrails, checker, at('guardrails'));
      checkLLMNumbers(c, checker, where);
      name('model');
      name('outputVariable');
      checkOutputConfig(c.output, checker, at('output'));
      checkCompact(c.compact, checker, at('compact'));
      if (c.toolChoice !== undefined && !isToolChoice(c.toolChoice))
        bad('toolChoice must be "auto", "none", "required" or { name }', at('toolChoice').path);
      break;
    }
    case 'TOOL': {
      if (!isObject(config)) {
        bad('TOOL node needs config.tool');
        return;
      }
      checker.tool(c.tool, tools, at('tool'));
      name('outputVariable');
      if (c.args !== undefined && !isObject(c.args)) {
        bad('args must be an object of argument values', at('args').path);
        return;
      }
      for (const [key, value] of Object.entries(c.args ?? {}))
        if (typeof value === 'string') checker.template(value, at(`args.${key}`));
      break;
    }
    case 'CONTEXT_PROCESSOR': {
      const ops = c.operations;
      if (!Array.isArray(ops) || ops.length === 0) {
        bad('CONTEXT_PROCESSOR needs config.operations (non-empty)');
        return;
      }
      ops.forEach((op: unknown, i) => {
        checkContextOperation(op, checker, at(`operations[${i}]`));
      });
      break;
    }
    case 'VARIABLE': {
      if (!isObject(config)) {
        bad('VARIABLE node needs config');
        return;
      }
      if (c.assign !== undefined && !isObject(c.assign))
        bad('assign must be an object of expressions', at('assign').path);
      else
        for (const [variable, source] of Object.entries(c.assign ?? {}))
          checker.expression(source, at(`assign.${variable}`));
      if (c.values !== undefined && !isObject(c.values))
        bad('values must be an object of variable values', at('values').path);
      if (c.message !== undefined) {
        if (!isObject(c.message)) bad('message must be { role, content }', at('message').path);
        else {
          if (!ROLES.has(c.message.role as string))
            bad('message.role must be system, user or assistant', at('message.role').path);
          checker.template(c.message.content, at('message.content'));
        }
      }
      break;
    }
    case 'USER_INTERACTION':
      if (c.prompt !== undefined) checker.template(c.prompt, at('prompt'));
      name('variable');
      flag('addMessage');
      checkAnswerSchema(c.input, at('input'), checker);
      checkWaitConfig(node, index, checker);
      break;
    case 'SLEEP':
    case 'WAIT_FOR_EVENT':
      if (!isObject(config)) {
        bad(`${node.type} node needs config`);
        return;
      }
      checkWaitConfig(node, index, checker);
      break;
    case 'END':
      if (c.output !== undefined) checker.expression(c.output, at('output'));
      break;
    case 'PARALLEL':
    case 'MAP':
    case 'JOIN':
    case 'SUBWORKFLOW':
      checkBranchNodeConfig(node.type, node.id, config, where, checker);
      break;
    default:
      break;
  }
}
