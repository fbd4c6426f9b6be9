import { evaluateExpression } from '../expressions/evaluate.js';
import { renderTemplate } from '../expressions/template.js';
import type { ThreadContext } from '../thread/thread-context.js';

/** Renders a template of the thread's workflow (parsed at registration) against the thread. */
export function renderIn(thread: ThreadContext, source: string): string {
  const template = thread.workflow.templates.get(source);
  return template ? renderTemplate(template, thread.scope()) : source;
}

/** Evaluates an expression of the thread's workflow (parsed at registration) against the thread. */
export function evaluateIn(thread: ThreadContext, source: string): unknown {
  const compiled = thread.workflow.expressions.get(source);
  if (!compiled) throw new Error(`expression "${source}" was not compiled with the workflow`);
  return evaluateExpression(compiled, thread.scope());
}
