import type {
  LLMMessage,
  LLMRequest,
  LLMResponse,
  ToolCall,
  ToolSpec,
  ToolThreadContext,
} from '@skein/spec';
import { contentText } from '@skein/spec';
import { toolNotFound } from '../errors/not-found.js';
import { rejectedCalls } from '../pauses/approval-decisions.js';
import { resumedPause } from '../pauses/pause-of-kind.js';
import type { ThreadContext } from '../thread/thread-context.js';
import type { Tool } from '../tools/tool.js';
import type { ToolInputAnswer, ToolInputRequest } from '../tools/tool-input.js';
import { toolErrorContent } from '../tools/tool-runner.js';
import type { Mutable } from '../util/mutable.js';
import { plainCopy } from '../util/with-entry.js';
import type { LLMNode } from '../workflow/types.js';
import { hasRef, withAttachmentBytes } from './attachment-bytes.js';
import { compactIfNeeded } from './compaction.js';
import { findTool } from './find-tool.js';
import {
  anyToolGuardrails,
  guardCalls,
  guardInput,
  guardOutput,
  guardResult,
  guardrailNames,
  isGuarded,
  TOOL_REFUSED,
} from './guard-stages.js';
import { callModel } from './model-call.js';
import { renderIn } from './node-expressions.js';
import type { NodeHandler, NodeOutcome, NodeRunContext } from './node-handler.js';
import { plainAnswer } from './plain-answer.js';
import { storableToolResult } from './storable-tool-result.js';
import { nodeOutputValue, withOutputSchema } from './structured-output.js';
import { showSystemPrompt } from './system-prompt.js';
import { uniqueToolCallIds } from './unique-tool-call-ids.js';

type AnyTool = Tool;

const DEFAULT_MAX_TOOL_ROUNDS = 10;
const DEFAULT_TOOL_CONCURRENCY = 4;

/** How an LLM node ended (its output is the final assistant text). */
interface LLMNodeOutput {
  readonly content: string;
  /** `done` when the model stopped calling tools; `max-tool-rounds` when the bound cut it off. */
  readonly stopReason: 'done' | 'max-tool-rounds' | 'interrupted';
  readonly rounds: number;
}

/**
 * The tools this node offers: its configured names, or every tool the thread has. Synchronous
 * unless a tool decides per call whether it is enabled (`isEnabled`).
 */
function offeredTools(
  ctx: NodeRunContext<LLMNode>,
): Map<string, AnyTool> | Promise<Map<string, AnyTool>> {
  const { thread, node, services } = ctx;
  const { initial, dynamic } = thread.availableTools;
  const candidates: AnyTool[] = [];
  if (node.config?.tools) {
    for (const name of node.config.tools) {
      const tool = findTool(thread, services.tools, name);
      if (!tool) throw toolNotFound(name, `LLM node "${node.id}"`);
      candidates.push(tool);
    }
  } else if (dynamic.length === 0) {
    candidates.push(...initial);
  } else {
    const dynamicNames = new Set(dynamic.map((t) => t.name));
    candidates.push(...initial.filter((t) => !dynamicNames.has(t.name)), ...dynamic);
  }
  if (candidates.some((tool) => tool.isEnabled))
    return enabledTools(candidates, { threadId: thread.threadId, variables: thread.variables });
  const offered = new Map<string, AnyTool>();
  for (const tool of candidates) offered.set(tool.name, tool);
  return offered;
}

async function enabledTools(
  candidates: readonly AnyTool[],
  toolContext: ToolThreadContext,
): Promise<Map<string, AnyTool>> {
  const offered = new Map<string, AnyTool>();
  for (const tool of candidates) {
    if (tool.isEnabled && !(await tool.isEnabled(toolContext))) continue;
    offered.set(tool.name, tool);
  }
  return offered;
}

function specOf(tool: AnyTool): ToolSpec {
  return {
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    ...(tool.strict === undefined ? {} : { strict: tool.strict }),
  };
}

async function callsNeedingApproval(
  calls: readonly ToolCall[],
  tools: ReadonlyMap<string, AnyTool>,
  thread: ThreadContext,
): Promise<string[]> {
  const awaiting: string[] = [];
  for (const call of calls) {
    const tool = tools.get(call.name);
    if (!tool?.needsApproval || call.error !== undefined) continue;
    let needed = tool.needsApproval === true;
    if (typeof tool.needsApproval === 'function') {
      let args: unknown = {};
      try {
        args = JSON.parse(call.arguments || '{}');
      } catch {
        // Bad JSON is reported by the runner; asking for approval of it would be pointless.
        continue;
      }
      needed = await tool.needsApproval(args as never, {
        threadId: thread.threadId,
        variables: thread.variables,
      });
    }
    if (needed) awaiting.push(call.id);
  }
  return awaiting;
}

function callerOf(ctx: NodeRunContext) {
  const callWorkflow = ctx.services.workflowCaller?.(ctx);
  return callWorkflow ? { callWorkflow } : {};
}

/**
 * A key per call that a re-run of the node after a crash gives again if the model asks for the
 * same calls: thread, node, step, round and position in the message (a provider's call ids are
 * new on every request).
 */
function idempotencyKeys(
  ctx: NodeRunContext<LLMNode>,
  calls: readonly ToolCall[],
  round: number,
): Map<string, string> {
  const base = `${ctx.thread.threadId}:${ctx.node.id}:${ctx.thread.state.step}:${round}`;
  return new Map(calls.map((call, i) => [call.id, `${base}:${i}`]));
}

const NONE_REJECTED: ReadonlyMap<string, string | undefined> = new Map();
const NONE_REFUSED: ReadonlyMap<string, string> = new Map();

/** A round's calls as they ran on: the results they already have, and answers for calls that asked. */
interface RoundSoFar {
  readonly results: Readonly<Record<string, LLMMessage>>;
  readonly answers?: ReadonlyMap<string, ToolInputAnswer>;
}

const NOTHING_YET: RoundSoFar = { results: {} };

/**
 * Runs a round's calls that have no result yet and adds the whole round's results to the
 * conversation, in call order. When a call asks for a person's answer (`pauseForInput`), nothing
 * is added: the node pauses with the results so far, and runs the round on once answered.
 */
async function runCalls(
  ctx: NodeRunContext<LLMNode>,
  calls: readonly ToolCall[],
  tools: ReadonlyMap<string, AnyTool>,
  /** Calls not approved, with the reason the model is shown (if one was given). */
  rejected: ReadonlyMap<string, string | undefined>,
  round: number,
  soFar: RoundSoFar = NOTHING_YET,
  /** Calls a guardrail refused, with the result text the model is shown. */
  refused: ReadonlyMap<string, string> = NONE_REFUSED,
): Promise<NodeOutcome | undefined> {
  const { thread, node, services } = ctx;
  const signal = ctx.signal;
  const runnable = calls.filter(
    (c) => !rejected.has(c.id) && !refused.has(c.id) && !Object.hasOwn(soFar.results, c.id),
  );
  // Results a tool-result guardrail will see are announced (`tool:result`) once it has.
  const guardResults = anyToolGuardrails(ctx, tools, 'tool-result');
  const held = guardResults
    ? new Set(
        runnable
          .filter((c) => guardrailNames(ctx, 'tool-result', tools.get(c.name)).length > 0)
          .map((c) => c.id),
      )
    : undefined;
  const ran = await services.toolRunner.runAll(
    runnable,
    {
      threadId: thread.threadId,
      nodeId: node.id,
      signal,
      variables: thread.variables,
      tools,
      step: thread.state.step,
      idempotencyKeys: idempotencyKeys(ctx, calls, round),
      ...(soFar.answers ? { answers: soFar.answers } : {}),
      ...(held && held.size > 0 ? { heldResults: held } : {}),
      ...callerOf(ctx),
    },
    node.config?.toolConcurrency ?? DEFAULT_TOOL_CONCURRENCY,
  );
  const results: Record<string, LLMMessage> = { ...soFar.results };
  const failures: Record<string, number> = Object.create(null);
  let asked: { readonly callId: string; readonly request: ToolInputRequest } | undefined;
  for (let i = 0; i < runnable.length; i++) {
    const call = runnable[i]!;
    const outcome = ran[i]!;
    if (outcome.pause) {
      asked ??= { callId: call.id, request: outcome.pause };
      continue;
    }
    const { result, reason } = storableToolResult(call, outcome);
    if (reason !== undefined)
      services.emitter.emit('tool:error', {
        threadId: thread.threadId,
        nodeId: node.id,
        toolCallId: call.id,
        name: call.name,
        code: result.errorCode!,
        message: reason,
      });
    if (held?.has(call.id)) {
      const guarded = await guardResult(ctx, call, tools.get(call.name), result.message);
      results[call.id] = guarded;
      services.emitter.emit('tool:result', {
        threadId: thread.threadId,
        nodeId: node.id,
        toolCallId: call.id,
        name: call.name,
        content: contentText(guarded.content),
        isError: result.isError,
        durationMs: outcome.durationMs ?? 0,
      });
    } else results[call.id] = result.message;
    if (result.isError) failures[call.name] = (failures[call.name] ?? 0) + 1;
  }
  for (const [id, content] of refused) {
    const call = calls.find((c) => c.id === id);
    if (!call || Object.hasOwn(results, id)) continue;
    results[id] = {
      role: 'tool',
      content,
      toolCallId: id,
      name: call.name,
      metadata: { isError: true, errorCode: TOOL_REFUSED },
    };
    services.emitter.emit('tool:error', {
      threadId: thread.threadId,
      nodeId: node.id,
      toolCallId: id,
      name: call.name,
      code: TOOL_REFUSED,
      message: content,
    });
  }
  for (const call of calls) {
    if (!rejected.has(call.id) || Object.hasOwn(results, call.id)) continue;
    const reason = rejected.get(call.id);
    const content = toolErrorContent(
      'TOOL_REJECTED',
      `the call to "${call.name}" was not approved${reason ? `: ${reason}` : ''}`,
    );
    results[call.id] = {
      role: 'tool',
      content,
      toolCallId: call.id,
      name: call.name,
      metadata: { isError: true, errorCode: 'TOOL_REJECTED' },
    };
    services.emitter.emit('tool:error', {
      threadId: thread.threadId,
      nodeId: node.id,
      toolCallId: call.id,
      name: call.name,
      code: 'TOOL_REJECTED',
      message: content,
    });
  }
  ctx.countToolFailures(failures);
  if (asked) {
    const { prompt, input, state } = asked.request;
    return {
      kind: 'pause',
      pending: {
        kind: 'user-input',
        nodeId: node.id,
        prompt,
        ...(input === undefined ? {} : { input }),
        tool: {
          round,
          calls,
          callId: asked.callId,
          results,
          ...(state === undefined ? {} : { state }),
        },
      },
    };
  }
  for (const call of calls) thread.conversation.addMessage(results[call.id]!);
  return undefined;
}

async function generate(
  ctx: NodeRunContext<LLMNode>,
  tools: ReadonlyMap<string, AnyTool>,
  round: number,
  signal?: AbortSignal,
): Promise<LLMResponse> {
  const { thread, node, services } = ctx;
  const config = node.config ?? {};
  // With `output: { schema }` the call carries the schema and checks the answer (retried).
  const llm = withOutputSchema(services.llmFor(node), node);
  // Read back only when a message holds a ref: a thread that ran here holds its bytes, and its
  // call starts in the same turn of the event loop as before (branches rely on that order).
  const visible = thread.conversation.getMessages();
  const request: LLMRequest = {
    threadId: thread.threadId,
    nodeId: node.id,
    messages: visible.some(hasRef)
      ? await withAttachmentBytes(visible, thread.threadId, services.readAttachment)
      : visible,
    tools: [...tools.values()].map(specOf),
    ...(config.model === undefined ? {} : { model: config.model }),
    ...(config.temperature === undefined ? {} : { temperature: config.temperature }),
    ...(config.maxTokens === undefined ? {} : { maxTokens: config.maxTokens }),
    ...(config.toolChoice === undefined ? {} : { toolChoice: config.toolChoice }),
  };
  return callModel(ctx, llm, request, round, config.retry, signal);
}

const NO_NAMES: readonly string[] = [];

/**
 * The model call with the input guardrails: those not `beside` check first; the others check
 * beside the call, and a trip (or a failed check) cancels it. The answer is used only once every
 * check has passed.
 */
async function guardedGenerate(
  ctx: NodeRunContext<LLMNode>,
  tools: ReadonlyMap<string, AnyTool>,
  round: number,
  names: readonly string[],
): Promise<LLMResponse> {
  const registry = ctx.services.guardrails;
  const beside = names.filter((name) => registry?.get(name)?.beside === true);
  const before = beside.length === 0 ? names : names.filter((name) => !beside.includes(name));
  if (before.length > 0) await guardInput(ctx, before);
  if (beside.length === 0) return generate(ctx, tools, round);
  const call = new AbortController();
  const outer = ctx.signal;
  const onAbort = () => call.abort(outer?.reason);
  if (outer?.aborted) onAbort();
  else outer?.addEventListener('abort', onAbort, { once: true });
  try {
    const [, response] = await Promise.all([
      guardInput(ctx, beside, call.signal).catch((error: unknown) => {
        call.abort(error);
        throw error;
      }),
      generate(ctx, tools, round, call.signal),
    ]);
    return response;
  } finally {
    outer?.removeEventListener('abort', onAbort);
  }
}

/**
 * Sends the visible conversation and the offered tools to the model, runs the tool calls it
 * returns (in parallel, bounded), appends everything, and repeats until the model answers without
 * tool calls or `maxToolRounds` model calls have asked for tools. The conversation only changes
 * after a model call succeeded, so a failed call leaves it as it was.
 */
export const llmNodeHandler: NodeHandler<LLMNode> = async (ctx): Promise<NodeOutcome> => {
  const { thread, node, services } = ctx;
  const config = node.config ?? {};
  const maxRounds = config.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS;
  const offered = offeredTools(ctx);
  const tools = offered instanceof Promise ? await offered : offered;
  let round = 0;
  let lastContent = '';
  const guarded = isGuarded(ctx);
  const inputNames = guarded ? guardrailNames(ctx, 'input') : NO_NAMES;
  const guardCalls_ = anyToolGuardrails(ctx, tools, 'tool-call');

  const approvals = resumedPause(ctx, 'tool-approval');
  const asked = resumedPause(ctx, 'user-input')?.tool;
  if (ctx.resume && approvals) {
    const rejected = rejectedCalls(thread.threadId, approvals.awaiting, ctx.resume.input);
    const refused = approvals.refused ? new Map(Object.entries(approvals.refused)) : NONE_REFUSED;
    const paused = await runCalls(
      ctx,
      approvals.calls,
      tools,
      rejected,
      approvals.round,
      NOTHING_YET,
      refused,
    );
    if (paused) return paused;
    round = approvals.round + 1;
  } else if (ctx.resume && asked) {
    const at = asked;
    const answer = plainAnswer(thread.threadId, ctx.resume.input);
    const answers = new Map([[at.callId, { answer, state: at.state }]]);
    const paused = await runCalls(ctx, at.calls, tools, NONE_REJECTED, at.round, {
      results: at.results,
      answers,
    });
    if (paused) return paused;
    round = at.round + 1;
  } else {
    if (config.systemPrompt !== undefined)
      showSystemPrompt(thread, node.id, renderIn(thread, config.systemPrompt));
    if (config.prompt !== undefined)
      thread.conversation.addMessage({ role: 'user', content: renderIn(thread, config.prompt) });
  }

  while (round < maxRounds) {
    // Messages sent meanwhile join before the call (after the round's tool results), or an
    // interrupt ends the node here with its finished rounds kept.
    if (ctx.inbox && (await ctx.inbox.beforeModelCall()))
      return finish(ctx, { content: lastContent, stopReason: 'interrupted', rounds: round });
    // Awaited only when asked for: a node without `compact` starts its call in the same tick.
    if (config.compact !== undefined) await compactIfNeeded(ctx, config.compact, round);
    const response =
      inputNames.length === 0
        ? await generate(ctx, tools, round)
        : await guardedGenerate(ctx, tools, round, inputNames);
    const answered = response.message;
    // Ids made unique before the message is stored: the provider sees these ids from now on.
    const message = plainCopy(answered) as Mutable<LLMMessage>;
    message.role = 'assistant';
    if (answered.toolCalls) message.toolCalls = uniqueToolCallIds(answered.toolCalls);
    // The final answer passes the output guardrails before the thread takes it.
    if (guarded && !message.toolCalls?.length) await guardOutput(ctx, message);
    if (response.usage) thread.conversation.recordUsage(response.usage);
    thread.conversation.addMessage(message);
    services.emitter.emit('llm:response', {
      threadId: thread.threadId,
      nodeId: node.id,
      message,
      ...(response.usage ? { usage: response.usage } : {}),
      finishReason: response.finishReason,
      round,
    });
    lastContent = contentText(message.content);
    const calls = message.toolCalls ?? [];
    if (calls.length === 0)
      return finish(ctx, { content: lastContent, stopReason: 'done', rounds: round + 1 });

    // Tool-call guardrails first: nobody is asked to approve a call that would be refused.
    const refused = guardCalls_ ? await guardCalls(ctx, calls, tools) : NONE_REFUSED;
    const awaiting = await callsNeedingApproval(
      refused.size === 0 ? calls : calls.filter((c) => !refused.has(c.id)),
      tools,
      thread,
    );
    if (awaiting.length > 0)
      return {
        kind: 'pause',
        pending: {
          kind: 'tool-approval',
          nodeId: node.id,
          round,
          calls,
          awaiting,
          ...(refused.size > 0 ? { refused: Object.fromEntries(refused) } : {}),
        },
      };
    const paused = await runCalls(ctx, calls, tools, NONE_REJECTED, round, NOTHING_YET, refused);
    if (paused) return paused;
    round++;
  }
  services.emitter.emit('warning', {
    threadId: thread.threadId,
    nodeId: node.id,
    code: 'MAX_TOOL_ROUNDS',
    message: `LLM node "${node.id}" stopped after ${maxRounds} tool rounds; the model was still calling tools`,
    details: { maxToolRounds: maxRounds },
  });
  return finish(ctx, { content: lastContent, stopReason: 'max-tool-rounds', rounds: round });
};

function finish(ctx: NodeRunContext<LLMNode>, output: LLMNodeOutput): NodeOutcome {
  const variable = ctx.node.config?.outputVariable;
  const value = nodeOutputValue(ctx.node, output.content, output.stopReason);
  return {
    kind: 'next',
    output: value,
    status: output.stopReason,
    ...(variable ? { variables: { [variable]: value } } : {}),
  };
}
