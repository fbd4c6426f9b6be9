import { evaluateExpression } from '../expressions/evaluate.js';
import { renderTemplate } from '../expressions/template.js';
import type { ThreadContext } from '../thread/thread-context.js';

/** The thread's scope, with `vars` in place of its variables when a node has set some. */
function scopeOf(thread: ThreadContext, vars?: Readonly<Record<string, unknown>>) {
  const scope = thread.scope();
  return vars && vars !== scope.vars ? { ...scope, vars } : scope;
}

/** Renders a template of the thread's workflow (parsed at registration) against the thread. */
export function renderIn(
  thread: ThreadContext,
  source: string,
  vars?: Readonly<Record<string, unknown>>,
): string {
  const template = thread.workflow.templates.get(source);
  return template ? renderTemplate(template, scopeOf(thread, vars)) : source;
}

/** Evaluates an expression of the thread's workflow (parsed at registration) against the thread. */
export function evaluateIn(
  thread: ThreadContext,
  source: string,
  vars?: Readonly<Record<string, unknown>>,
): unknown {
  const compiled = thread.workflow.expressions.get(source);
  if (!compiled) throw new Error(`expression "${source}" was not compiled with the workflow`);
  return evaluateExpression(compiled, scopeOf(thread, vars));
}
