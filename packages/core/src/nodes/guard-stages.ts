import type { LLMMessage, ToolCall } from '@skein/spec';
import {
  type GuardedCall,
  type GuardrailStage,
  NAMES_FIELD,
  type ToolGuardrailNames,
} from '../guardrails/guardrail.js';
import { GuardrailError } from '../guardrails/guardrail-error.js';
import {
  type GuardOutcome,
  type GuardrailScope,
  runGuardrails,
} from '../guardrails/run-guardrails.js';
import { toolErrorContent } from '../tools/tool-runner.js';
import type { LLMNode } from '../workflow/types.js';
import type { NodeRunContext } from './node-handler.js';

/** The code of the result a model sees for a call a guardrail refused. */
export const TOOL_REFUSED = 'TOOL_REFUSED';

interface Named {
  readonly guardrails?: ToolGuardrailNames;
}

/** The names for `stage` at this node: the workflow's, the node's, then the tool's; once each. */
export function guardrailNames(
  ctx: NodeRunContext<LLMNode>,
  stage: GuardrailStage,
  tool?: Named,
): readonly string[] {
  const field = NAMES_FIELD[stage];
  const own = ctx.thread.workflow.definition.guardrails?.[field];
  const node = ctx.node.config?.guardrails?.[field];
  const forTool =
    stage === 'tool-call'
      ? tool?.guardrails?.call
      : stage === 'tool-result'
        ? tool?.guardrails?.result
        : undefined;
  if (!node && !forTool) return own ?? [];
  return [...new Set([...(own ?? []), ...(node ?? []), ...(forTool ?? [])])];
}

/** True when the node has any guardrail at all (most have none: nothing is built for them). */
export function isGuarded(ctx: NodeRunContext<LLMNode>): boolean {
  return (
    ctx.thread.workflow.definition.guardrails !== undefined ||
    ctx.node.config?.guardrails !== undefined
  );
}

function scopeOf(ctx: NodeRunContext<LLMNode>, signal?: AbortSignal): GuardrailScope {
  const { thread, node, services } = ctx;
  const registry = services.guardrails;
  if (!registry)
    throw GuardrailError.failed({
      guardrail: '(any)',
      reason: 'the engine has no guardrails registered',
    });
  return {
    registry,
    threadId: thread.threadId,
    nodeId: node.id,
    variables: thread.variables,
    messages: thread.conversation.getMessages(),
    signal: signal ?? ctx.signal,
    onAction: (action) =>
      services.emitter.emit('guardrail:verdict', {
        threadId: thread.threadId,
        nodeId: node.id,
        guardrail: action.guardrail,
        stage: action.stage,
        action: action.verdict.action,
        ...('reason' in action.verdict ? { reason: action.verdict.reason } : {}),
        ...(action.toolCallId === undefined
          ? {}
          : { toolCallId: action.toolCallId, toolName: action.toolName }),
      }),
  };
}

/**
 * Checks the user messages each input guardrail has not passed yet (the thread's `guarded`
 * marks, by storage position), and marks them passed: the marks are stored when the node
 * completes or pauses, so a resumed or later run does not check them again. Resolves at once
 * when there is nothing new. A trip throws `GUARDRAIL_TRIPPED`; the run's end keeps the
 * messages it judged from the model's view (`run/guardrail-trip.ts`).
 */
export async function guardInput(
  ctx: NodeRunContext<LLMNode>,
  names: readonly string[],
  signal?: AbortSignal,
): Promise<void> {
  const { conversation } = ctx.thread;
  const marks = ctx.thread.state.guarded;
  const through = conversation.getTotalMessageCount();
  const visible = new Set(conversation.getMessages());
  // Each guardrail sees the user messages after its own mark; most often all share one.
  const byFrom = new Map<number, string[]>();
  for (const name of names) {
    const from = marks?.[name] ?? 0;
    if (from >= through) continue;
    const list = byFrom.get(from);
    if (list) list.push(name);
    else byFrom.set(from, [name]);
  }
  if (byFrom.size === 0) return;
  const checks: Promise<GuardOutcome>[] = [];
  for (const [from, group] of byFrom) {
    const messages: LLMMessage[] = [];
    for (let p = from; p < through; p++) {
      const message = conversation.getStoredMessage(p);
      if (message?.role === 'user' && visible.has(message)) messages.push(message);
    }
    if (messages.length === 0) continue;
    checks.push(runGuardrails(group, { stage: 'input', messages }, scopeOf(ctx, signal)));
  }
  await Promise.all(checks);
  const moved: Record<string, number> = {};
  for (const name of names) moved[name] = through;
  ctx.markGuarded?.(moved);
}

/** The model's final answer, before the node takes it: throws on a trip. */
export async function guardOutput(
  ctx: NodeRunContext<LLMNode>,
  message: LLMMessage,
): Promise<void> {
  const names = guardrailNames(ctx, 'output');
  if (names.length > 0) await runGuardrails(names, { stage: 'output', message }, scopeOf(ctx));
}

function guardedCall(call: ToolCall): GuardedCall {
  let args: unknown = call.arguments;
  try {
    args = JSON.parse(call.arguments || '{}');
  } catch {
    // The raw text: a guardrail may still judge it; the runner reports the bad JSON.
  }
  return { id: call.id, name: call.name, arguments: args };
}

/**
 * The tool-call guardrails of a round's calls (before approvals are asked for): the calls they
 * refused, with the text the model is shown instead of a result. A trip throws.
 */
export async function guardCalls(
  ctx: NodeRunContext<LLMNode>,
  calls: readonly ToolCall[],
  tools: ReadonlyMap<string, Named>,
): Promise<Map<string, string>> {
  const refused = new Map<string, string>();
  const checks = calls.map(async (call) => {
    if (call.error !== undefined) return;
    const names = guardrailNames(ctx, 'tool-call', tools.get(call.name));
    if (names.length === 0) return;
    const outcome = await runGuardrails(
      names,
      { stage: 'tool-call', call: guardedCall(call) },
      scopeOf(ctx),
    );
    if (outcome.refused)
      refused.set(
        call.id,
        toolErrorContent(
          TOOL_REFUSED,
          `the call to "${call.name}" was refused by guardrail "${outcome.refused.guardrail}": ${outcome.refused.reason}`,
        ),
      );
  });
  await Promise.all(checks);
  return refused;
}

/** A call's result before the model sees it: redacted as the tool-result guardrails say. */
export async function guardResult(
  ctx: NodeRunContext<LLMNode>,
  call: ToolCall,
  tool: Named | undefined,
  result: LLMMessage,
): Promise<LLMMessage> {
  const names = guardrailNames(ctx, 'tool-result', tool);
  if (names.length === 0) return result;
  const outcome = await runGuardrails(
    names,
    { stage: 'tool-result', call: guardedCall(call), result },
    scopeOf(ctx),
  );
  return outcome.content === undefined
    ? result
    : { ...result, content: outcome.content, metadata: { ...result.metadata, redacted: true } };
}

/** Whether any tool guardrail could apply to this round (skips the work when none can). */
export function anyToolGuardrails(
  ctx: NodeRunContext<LLMNode>,
  tools: ReadonlyMap<string, Named>,
  stage: 'tool-call' | 'tool-result',
): boolean {
  if (guardrailNames(ctx, stage).length > 0) return true;
  for (const tool of tools.values())
    if ((stage === 'tool-call' ? tool.guardrails?.call : tool.guardrails?.result)?.length)
      return true;
  return false;
}
