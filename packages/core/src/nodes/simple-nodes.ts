import { contentProblem, type MessageContent } from '@skein/spec';
import { toolNotFound } from '../errors/not-found.js';
import { resumedPause } from '../pauses/pause-of-kind.js';
import type {
  EndNode,
  RouteNode,
  StartNode,
  ToolNode,
  UserInteractionNode,
  VariableNode,
} from '../workflow/types.js';
import { findTool } from './find-tool.js';
import { evaluateIn, renderIn } from './node-expressions.js';
import type { NodeHandler } from './node-handler.js';
import { plainAnswer } from './plain-answer.js';
import { deadlineOf, timedOut } from './wait-time.js';

export const startHandler: NodeHandler<StartNode> = () => ({ kind: 'next' });

export const routeHandler: NodeHandler<RouteNode> = () => ({ kind: 'next' });

/** Ends the thread with `config.output` evaluated, or the last node output. */
export const endHandler: NodeHandler<EndNode> = ({ thread, node }) => ({
  kind: 'end',
  output:
    node.config?.output !== undefined
      ? evaluateIn(thread, node.config.output)
      : thread.state.lastOutput,
});

/**
 * Sets variables (expressions, each seeing the ones before it, then literals) and optionally
 * appends a message rendered with them in place.
 */
export const variableHandler: NodeHandler<VariableNode> = ({ thread, node }) => {
  const { assign, values, message } = node.config;
  const set: Record<string, unknown> = Object.create(null);
  const assignments = Object.entries(assign ?? {});
  let vars = thread.variables;
  assignments.forEach(([name, source], i) => {
    set[name] = evaluateIn(thread, source, vars);
    // The next assignment sees this one.
    if (i < assignments.length - 1) vars = { ...vars, [name]: set[name] };
  });
  if (values) Object.assign(set, values);
  if (message)
    thread.conversation.addMessage({
      role: message.role,
      content: renderIn(thread, message.content, { ...thread.variables, ...set }),
    });
  return { kind: 'next', variables: set };
};

/** Calls one tool directly with templated arguments; a failure is its output, not a crash. */
export const toolNodeHandler: NodeHandler<ToolNode> = async (ctx) => {
  const { thread, node, services } = ctx;
  const signal = ctx.signal;
  const callWorkflow = ctx.services.workflowCaller?.(ctx);
  const { tool: name, args = {}, outputVariable } = node.config;
  const tool = findTool(thread, services.tools, name);
  if (!tool) throw toolNotFound(name, `TOOL node "${node.id}"`);
  // Null prototype: an argument named `__proto__` stays an argument.
  const rendered: Record<string, unknown> = Object.create(null);
  for (const [key, value] of Object.entries(args))
    rendered[key] = typeof value === 'string' ? renderIn(thread, value) : value;
  const step = thread.state.step;
  const callId = `${node.id}:${step}`;
  const result = await services.toolRunner.run(
    { id: callId, name, arguments: JSON.stringify(rendered) },
    {
      threadId: thread.threadId,
      nodeId: node.id,
      signal,
      variables: thread.variables,
      tools: new Map([[name, tool]]),
      step,
      // The same form as an LLM node's calls: one call, round 0, position 0.
      idempotencyKeys: new Map([[callId, `${thread.threadId}:${node.id}:${step}:0:0`]]),
      ...(callWorkflow ? { callWorkflow } : {}),
    },
  );
  const output = result.isError
    ? { content: result.message.content, isError: true }
    : result.message.content;
  return {
    kind: 'next',
    output,
    ...(outputVariable ? { variables: { [outputVariable]: output } } : {}),
  };
};

// An answer sent in parts (`send` with parts to a thread waiting for input) stays parts; any
// other value that is not text is stored as its JSON, as before parts.
function answerContent(answer: unknown): MessageContent {
  if (typeof answer === 'string') return answer;
  if (Array.isArray(answer) && answer.length > 0 && contentProblem(answer) === undefined)
    return answer as MessageContent;
  return JSON.stringify(answer);
}

/**
 * Pauses until `resume(thread, input)`; then stores the answer in `config.variable` and, unless
 * `addMessage` is false, adds it as a user message. With `timeout`, the pause has a deadline the
 * engine times it out at (to `onTimeout`, or `WAIT_TIMED_OUT`).
 */
export const userInteractionHandler: NodeHandler<UserInteractionNode> = (ctx) => {
  const { thread, node, resume, services } = ctx;
  const pending = resumedPause(ctx, 'user-input');
  if (!resume || !pending) {
    const prompt =
      node.config?.prompt === undefined ? undefined : renderIn(thread, node.config.prompt);
    const deadline = deadlineOf(thread, node.id, node.config?.timeout, services.now());
    return {
      kind: 'pause',
      pending: {
        kind: 'user-input',
        nodeId: node.id,
        ...(prompt === undefined ? {} : { prompt }),
        ...(node.config?.input === undefined ? {} : { input: node.config.input }),
        ...(deadline === undefined ? {} : { deadline }),
      },
    };
  }
  if (resume.timedOut) return timedOut(node.id, pending.deadline, node.config?.onTimeout);
  const answer = plainAnswer(thread.threadId, resume.input);
  if (node.config?.addMessage !== false)
    thread.conversation.addMessage({ role: 'user', content: answerContent(answer) });
  const variable = node.config?.variable;
  return {
    kind: 'next',
    output: answer,
    ...(variable ? { variables: { [variable]: answer } } : {}),
  };
};
