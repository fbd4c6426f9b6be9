import { type Checker, type IssueWhere, isObject } from './workflow-checker.js';

const CONVERSATIONS = new Set(['forked', 'isolated']);
const MERGES = new Set(['none', 'final-message', 'exchange']);
const CONCURRENCY = { min: 1, max: 10_000, integer: true } as const;
// Branch names and node ids become paths (`node/name`, `node[2]`): those characters would blur them.
const PATH_CHARS = /[/[\]]/;

type Config = Record<string, unknown>;

interface Field {
  readonly c: Config;
  readonly at: (field: string) => IssueWhere & { path: string };
  readonly bad: (message: string, field?: string) => void;
  readonly checker: Checker;
}

function name(f: Field, field: string, required = false): void {
  const value = f.c[field];
  if (value === undefined && !required) return;
  if (typeof value !== 'string' || value.length === 0)
    f.bad(`${field} must be a non-empty string`, field);
}

function common(f: Field): void {
  f.checker.number(
    'maxConcurrency',
    f.c.maxConcurrency,
    CONCURRENCY,
    f.at('maxConcurrency'),
    'INVALID_NODE_CONFIG',
  );
  if (f.c.conversation !== undefined && !CONVERSATIONS.has(f.c.conversation as string))
    f.bad('conversation must be "forked" or "isolated"', 'conversation');
}

function merge(f: Field): void {
  const m = f.c.merge;
  if (m === undefined || MERGES.has(m as string)) return;
  if (isObject(m) && typeof m.function === 'string' && m.function.length > 0) return;
  f.bad('merge must be "none", "final-message", "exchange" or { function: name }', 'merge');
}

function expressions(f: Field, field: string): void {
  const value = f.c[field];
  if (value === undefined) return;
  if (!isObject(value)) {
    f.bad(`${field} must be an object of name: expression`, field);
    return;
  }
  for (const [key, source] of Object.entries(value))
    f.checker.expression(source, f.at(`${field}.${key}`));
}

/** The config of a PARALLEL, MAP, JOIN or SUBWORKFLOW node (the graph around it is checked apart). */
export function checkBranchNodeConfig(
  type: string,
  nodeId: string,
  config: unknown,
  where: IssueWhere & { path: string },
  checker: Checker,
): void {
  const c: Config = isObject(config) ? config : {};
  const at = (field: string) => ({ ...where, path: `${where.path}.${field}` });
  const bad = (message: string, field?: string) =>
    checker.add({ ...(field ? at(field) : where), code: 'INVALID_NODE_CONFIG', message });
  const f: Field = { c, at, bad, checker };
  if (PATH_CHARS.test(nodeId))
    bad(`a ${type} node's id cannot contain "/", "[" or "]" (it names branch paths)`);
  switch (type) {
    case 'PARALLEL': {
      const branches = c.branches;
      if (!Array.isArray(branches) || branches.length === 0)
        bad('PARALLEL needs config.branches (non-empty)', 'branches');
      else {
        const seen = new Set<string>();
        for (const [i, b] of (branches as unknown[]).entries()) {
          const path = `branches[${i}]`;
          if (
            !isObject(b) ||
            typeof b.name !== 'string' ||
            b.name === '' ||
            typeof b.start !== 'string' ||
            b.start === ''
          ) {
            bad('a branch must be { name, start } with non-empty strings', path);
            continue;
          }
          if (PATH_CHARS.test(b.name))
            bad('a branch name cannot contain "/", "[" or "]"', `${path}.name`);
          if (seen.has(b.name)) bad(`branch name "${b.name}" is used twice`, `${path}.name`);
          seen.add(b.name);
        }
      }
      name(f, 'join', true);
      common(f);
      break;
    }
    case 'MAP':
      checker.expression(c.items, at('items'));
      name(f, 'start', true);
      name(f, 'join', true);
      name(f, 'itemVariable');
      name(f, 'indexVariable');
      common(f);
      break;
    case 'JOIN': {
      const wait = c.wait;
      if (wait !== undefined && wait !== 'all' && wait !== 'any') {
        if (!isObject(wait)) bad('wait must be "all", "any" or { first: n }', 'wait');
        else
          checker.number(
            'first',
            wait.first,
            { min: 1, max: Number.MAX_SAFE_INTEGER, integer: true },
            at('wait.first'),
            'INVALID_NODE_CONFIG',
          );
        if (isObject(wait) && wait.first === undefined) bad('wait.first is required', 'wait.first');
      }
      if (c.onError !== undefined && c.onError !== 'fail-fast' && c.onError !== 'collect')
        bad('onError must be "fail-fast" or "collect"', 'onError');
      name(f, 'outputVariable');
      if (c.output !== undefined) checker.expression(c.output, at('output'));
      merge(f);
      break;
    }
    case 'SUBWORKFLOW':
      name(f, 'workflow', true);
      name(f, 'version');
      name(f, 'outputVariable');
      expressions(f, 'input');
      expressions(f, 'output');
      if (c.message !== undefined) checker.template(c.message, at('message'));
      if (c.conversation !== undefined && !CONVERSATIONS.has(c.conversation as string))
        bad('conversation must be "forked" or "isolated"', 'conversation');
      merge(f);
      break;
  }
}
