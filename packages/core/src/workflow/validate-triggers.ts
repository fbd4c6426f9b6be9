import { checkContextOperation } from './validate-context-operation.js';
import { NUMBER_RANGES } from './validate-numbers.js';
import { type Checker, isObject, show } from './workflow-checker.js';

interface NodeIds {
  has(id: string): boolean;
}

/** Reports an `INVALID_TRIGGER` at a field of the condition or action at `path`. */
function invalidField(path: string, checker: Checker) {
  return (field: string, message: string): void =>
    checker.add({ code: 'INVALID_TRIGGER', path: `${path}.${field}`, message });
}

const CONDITIONS = [
  'visible-tokens-over',
  'visible-messages-over',
  'node-completed',
  'tool-failed',
  'expression',
];
const ACTIONS = ['context', 'set-variable', 'goto'];

function checkCondition(
  when: Record<string, unknown>,
  path: string,
  nodes: NodeIds,
  checker: Checker,
): void {
  const bad = invalidField(path, checker);
  const number = (field: string, range: (typeof NUMBER_RANGES)['size']) => {
    if (when[field] === undefined) bad(field, `a "${String(when.type)}" trigger needs ${field}`);
    checker.number(field, when[field], range, { path: `${path}.${field}` }, 'INVALID_TRIGGER');
  };
  switch (when.type) {
    case 'visible-tokens-over':
      number('tokens', NUMBER_RANGES.size);
      return;
    case 'visible-messages-over':
      number('count', NUMBER_RANGES.size);
      return;
    case 'node-completed':
      if (typeof when.nodeId !== 'string' || !nodes.has(when.nodeId))
        bad('nodeId', `trigger watches missing node ${show(when.nodeId)}`);
      return;
    case 'tool-failed':
      number('times', NUMBER_RANGES.times);
      if (when.tool !== undefined && (typeof when.tool !== 'string' || when.tool.length === 0))
        bad('tool', 'tool must be a non-empty tool name');
      return;
    case 'expression':
      checker.expression(when.expression, { path: `${path}.expression` });
      return;
    default:
      bad('type', `unknown trigger condition ${show(when.type)} (one of ${CONDITIONS.join(', ')})`);
  }
}

function checkAction(
  action: Record<string, unknown>,
  path: string,
  nodes: NodeIds,
  checker: Checker,
): void {
  const bad = invalidField(path, checker);
  switch (action.type) {
    case 'goto':
      if (typeof action.nodeId !== 'string' || !nodes.has(action.nodeId))
        bad('nodeId', `trigger jumps to missing node ${show(action.nodeId)}`);
      return;
    case 'set-variable':
      if (typeof action.variable !== 'string' || action.variable.length === 0)
        bad('variable', 'variable must be a non-empty string');
      checker.expression(action.expression, { path: `${path}.expression` });
      return;
    case 'context':
      if (isObject(action.operation) && action.operation.type === 'SUMMARIZE') {
        // A trigger fires between nodes, synchronously: a summary's model call has no place there.
        bad(
          'operation',
          "a trigger cannot SUMMARIZE (it makes a model call): use a CONTEXT_PROCESSOR node or an LLM node's compact",
        );
        return;
      }
      checkContextOperation(
        action.operation,
        checker,
        { path: `${path}.operation` },
        'INVALID_TRIGGER',
      );
      return;
    default:
      bad('type', `unknown trigger action ${show(action.type)} (one of ${ACTIONS.join(', ')})`);
  }
}

/**
 * The workflow's triggers: each needs a unique id, a known condition and a known action whose
 * fields hold. A trigger the executor would not understand is refused here rather than never
 * firing.
 */
export function checkTriggers(triggers: unknown, nodes: NodeIds, checker: Checker): void {
  if (triggers === undefined) return;
  if (!Array.isArray(triggers)) {
    checker.add({
      code: 'INVALID_TRIGGER',
      path: 'triggers',
      message: 'triggers must be an array',
    });
    return;
  }
  const ids = new Set<string>();
  triggers.forEach((trigger: unknown, i) => {
    const path = `triggers[${i}]`;
    if (
      !isObject(trigger) ||
      typeof trigger.id !== 'string' ||
      trigger.id.length === 0 ||
      !isObject(trigger.when) ||
      !isObject(trigger.action)
    ) {
      checker.add({
        code: 'INVALID_TRIGGER',
        path,
        message: 'a trigger needs a non-empty string id, a when object and an action object',
      });
      return;
    }
    if (ids.has(trigger.id))
      checker.add({
        code: 'INVALID_TRIGGER',
        path: `${path}.id`,
        message: `trigger id "${trigger.id}" is used more than once`,
      });
    ids.add(trigger.id);
    checkCondition(trigger.when, `${path}.when`, nodes, checker);
    checkAction(trigger.action, `${path}.action`, nodes, checker);
    if (trigger.once !== undefined && typeof trigger.once !== 'boolean')
      checker.add({
        code: 'INVALID_TRIGGER',
        path: `${path}.once`,
        message: 'once must be a boolean',
      });
  });
}
