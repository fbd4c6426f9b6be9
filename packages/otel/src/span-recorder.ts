import {
  type Attributes,
  type Context,
  context,
  type Link,
  type Span,
  type SpanContext,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type {
  GuardrailVerdictEvent,
  LLMRequestEvent,
  LLMResponseEvent,
  NodeCompletedEvent,
  NodeEvent,
  NodeFailedEvent,
  ThreadFinishedEvent,
  ThreadPausedEvent,
  ThreadStartedEvent,
  ToolCallEvent,
  ToolErrorEvent,
  ToolResultEvent,
  WarningEvent,
} from '@skein/core';
import * as a from './attributes.js';
import { bounded, boundedAttributes } from './bounded-value.js';
import { messagesJson, outputJson, toolDefinitionsJson } from './content.js';
import { GUARDRAIL_EVENT, tripAttributes, verdictAttributes } from './guardrail-attributes.js';
import { mediaAttributes } from './media-attributes.js';
import { type Failure, fail } from './record-failure.js';
import { SpanBounds } from './span-bounds.js';
import { type ThreadFacts, threadAttributes } from './thread-attributes.js';

interface Opened {
  readonly span: Span;
  readonly context: Context;
}

/** The spans of one run of a thread (from a start or a resume to its end or pause). */
interface ThreadRun extends Opened {
  readonly workflowId: string | undefined;
  readonly workflowVersion: string | undefined;
  node: (Opened & { readonly nodeId: string }) | undefined;
  llm: Span | undefined;
  readonly tools: Map<string, Span>;
  /** Tool calls of the current node whose span has ended: a late `tool:error` is noted, not a new span. */
  readonly endedTools: Set<string>;
}

/** What a paused run leaves for the run that resumes it. */
interface PausedRun {
  readonly spanContext: SpanContext;
  readonly workflowId: string | undefined;
  readonly workflowVersion: string | undefined;
}

// Threads that pause and never resume would otherwise be remembered forever.
const MAX_PAUSED = 10_000;

/**
 * Turns engine events into spans: a thread run holds its node spans, which hold their model and
 * tool calls. Parents are passed explicitly, so the tree is right whatever context manager the
 * application uses, or none; only a top-level run starts under the active context (a span of the
 * caller's, when a context manager tracks one).
 */
export class SpanRecorder {
  readonly #captureContent: boolean;
  readonly #runs = new Map<string, ThreadRun>();
  readonly #paused = new Map<string, PausedRun>();
  readonly #bounds: SpanBounds;

  constructor(tracer: Tracer, captureContent: boolean, maxAttributeLength: number) {
    this.#captureContent = captureContent;
    this.#bounds = new SpanBounds(tracer, maxAttributeLength);
  }

  threadStarted(event: ThreadStartedEvent): void {
    this.#abandon(event.threadId);
    this.#start(event, event.workflowId, event.workflowVersion);
  }

  threadPaused(event: ThreadPausedEvent): void {
    const run = this.#runs.get(event.threadId);
    if (!run) return;
    this.#runs.delete(event.threadId);
    if (run.node) {
      run.node.span.setAttribute(a.SKEIN_NODE_STATUS, 'PAUSED');
      run.node.span.setStatus({ code: SpanStatusCode.OK });
    }
    this.#closeChildren(run);
    run.span.setAttribute(a.SKEIN_THREAD_STATUS, 'PAUSED');
    this.#bounds.set(run.span, a.SKEIN_PAUSE_REASON, event.reason);
    run.span.setStatus({ code: SpanStatusCode.OK });
    run.span.end();
    this.#paused.delete(event.threadId);
    this.#paused.set(event.threadId, {
      spanContext: run.span.spanContext(),
      workflowId: run.workflowId,
      workflowVersion: run.workflowVersion,
    });
    if (this.#paused.size > MAX_PAUSED) {
      const oldest = this.#paused.keys().next().value;
      if (oldest !== undefined) this.#paused.delete(oldest);
    }
  }

  threadFinished(event: ThreadFinishedEvent): void {
    this.#paused.delete(event.threadId);
    const run = this.#runs.get(event.threadId);
    if (!run) return;
    this.#runs.delete(event.threadId);
    const error = event.error ?? { code: event.status, message: `thread ${event.status}` };
    this.#closeChildren(run, event.status === 'COMPLETED' ? undefined : error);
    this.#bounds.set(run.span, a.SKEIN_THREAD_STATUS, event.status);
    run.span.setAttribute(a.SKEIN_THREAD_STEPS, event.steps);
    const trip = tripAttributes(event, this.#bounds.limit);
    if (trip) run.span.setAttributes(trip);
    if (event.status === 'COMPLETED') run.span.setStatus({ code: SpanStatusCode.OK });
    else fail(run.span, error, this.#bounds.limit);
    run.span.end();
  }

  nodeStarted(event: NodeEvent): void {
    const run = this.#runFor(event);
    // A node span left open (a listener added mid-node) must not become the parent of this one.
    if (run.node) this.#closeChildren(run);
    const llm = event.nodeType === 'LLM';
    const attributes: Attributes = {
      [a.SKEIN_THREAD_ID]: event.threadId,
      [a.SKEIN_NODE_ID]: event.nodeId,
      [a.SKEIN_NODE_TYPE]: event.nodeType,
      [a.SKEIN_NODE_STEP]: event.step,
    };
    if (llm) {
      // An LLM node is an agent loop: model calls and the tool calls they ask for.
      attributes[a.GEN_AI_OPERATION_NAME] = 'invoke_agent';
      attributes[a.GEN_AI_AGENT_NAME] = event.nodeId;
      attributes[a.GEN_AI_CONVERSATION_ID] = event.threadId;
    }
    const name = llm ? `invoke_agent ${event.nodeId}` : `skein.node ${event.nodeId}`;
    const span = this.#bounds.start(name, SpanKind.INTERNAL, attributes, run.context);
    run.node = { span, context: trace.setSpan(run.context, span), nodeId: event.nodeId };
  }

  nodeCompleted(event: NodeCompletedEvent): void {
    const run = this.#runs.get(event.threadId);
    const node = run?.node;
    if (!run || !node || node.nodeId !== event.nodeId) return;
    if (event.status !== undefined) this.#bounds.set(node.span, a.SKEIN_NODE_STATUS, event.status);
    if (event.nextNodeId !== undefined)
      this.#bounds.set(node.span, a.SKEIN_NODE_NEXT, event.nextNodeId);
    node.span.setStatus({ code: SpanStatusCode.OK });
    this.#closeNode(run);
  }

  nodeFailed(event: NodeFailedEvent): void {
    const run = this.#runs.get(event.threadId);
    const node = run?.node;
    if (!run || !node || node.nodeId !== event.nodeId) return;
    this.#closeChildren(run, event.error);
  }

  llmRequest(event: LLMRequestEvent): void {
    const run = this.#runFor(event);
    run.llm?.end();
    const attributes: Attributes = {
      [a.GEN_AI_OPERATION_NAME]: 'chat',
      [a.GEN_AI_CONVERSATION_ID]: event.threadId,
      [a.SKEIN_NODE_ID]: event.nodeId,
      [a.SKEIN_LLM_ROUND]: event.round,
    };
    if (event.model !== undefined) attributes[a.GEN_AI_REQUEST_MODEL] = event.model;
    if (event.purpose !== undefined) attributes[a.SKEIN_LLM_PURPOSE] = event.purpose;
    Object.assign(attributes, mediaAttributes(event.messages, 'input'));
    if (this.#captureContent) {
      attributes[a.GEN_AI_INPUT_MESSAGES] = messagesJson(event.messages);
      if (event.tools.length > 0)
        attributes[a.GEN_AI_TOOL_DEFINITIONS] = toolDefinitionsJson(event.tools);
    }
    run.llm = this.#bounds.start(
      event.model === undefined ? 'chat' : `chat ${event.model}`,
      SpanKind.CLIENT,
      attributes,
      (run.node ?? run).context,
    );
  }

  llmResponse(event: LLMResponseEvent): void {
    const run = this.#runs.get(event.threadId);
    const span = run?.llm;
    if (!run || !span) return;
    this.#bounds.set(span, a.GEN_AI_RESPONSE_FINISH_REASONS, [event.finishReason]);
    if (event.usage)
      span.setAttributes({
        [a.GEN_AI_USAGE_INPUT_TOKENS]: event.usage.promptTokens,
        [a.GEN_AI_USAGE_OUTPUT_TOKENS]: event.usage.completionTokens,
      });
    span.setAttributes(
      boundedAttributes(mediaAttributes([event.message], 'output'), this.#bounds.limit),
    );
    if (this.#captureContent)
      this.#bounds.set(
        span,
        a.GEN_AI_OUTPUT_MESSAGES,
        outputJson(event.message, event.finishReason),
      );
    span.setStatus({ code: SpanStatusCode.OK });
    span.end();
    run.llm = undefined;
  }

  toolCall(event: ToolCallEvent): void {
    const run = this.#runFor(event);
    run.tools.get(event.toolCallId)?.end();
    run.tools.set(event.toolCallId, this.#toolSpan(run, event));
  }

  toolResult(event: ToolResultEvent): void {
    const run = this.#runs.get(event.threadId);
    const span = run?.tools.get(event.toolCallId);
    if (!run || !span) return;
    span.setAttribute(a.SKEIN_TOOL_IS_ERROR, event.isError);
    if (this.#captureContent) this.#bounds.set(span, a.GEN_AI_TOOL_CALL_RESULT, event.content);
    // A failed call already got its error status from `tool:error`.
    if (!event.isError) span.setStatus({ code: SpanStatusCode.OK });
    span.end();
    run.tools.delete(event.toolCallId);
    run.endedTools.add(event.toolCallId);
  }

  toolError(event: ToolErrorEvent): void {
    const run = this.#runFor(event);
    const open = run.tools.get(event.toolCallId);
    if (open) {
      fail(open, event, this.#bounds.limit);
      return;
    }
    if (run.endedTools.has(event.toolCallId)) {
      // The result could not be stored after the call ended: said on the node that stores it.
      (run.node ?? run).span.addEvent(
        'skein.tool.error',
        boundedAttributes(
          {
            [a.GEN_AI_TOOL_CALL_ID]: event.toolCallId,
            [a.GEN_AI_TOOL_NAME]: event.name,
            [a.ERROR_TYPE]: event.code,
          },
          this.#bounds.limit,
        ),
      );
      return;
    }
    // A call that never ran (a rejected approval): a span of no duration says so.
    const span = this.#toolSpan(run, event);
    fail(span, event, this.#bounds.limit);
    span.end();
    run.endedTools.add(event.toolCallId);
  }

  /** A guardrail's trip, refusal or redaction: an event on the node span it happened in. */
  guardrailVerdict(event: GuardrailVerdictEvent): void {
    const run = this.#runFor(event);
    const span = run.node?.nodeId === event.nodeId ? run.node.span : run.span;
    span.addEvent(GUARDRAIL_EVENT, verdictAttributes(event, this.#bounds.limit));
  }

  warning(event: WarningEvent): void {
    if (event.threadId === undefined) return;
    const run = this.#runs.get(event.threadId);
    if (!run) return;
    const span = run.llm ?? run.node?.span ?? run.span;
    span.addEvent('skein.warning', {
      'skein.warning.code': bounded(event.code, this.#bounds.limit),
    });
  }

  /** Ends every open span (the instrumentation is being removed). */
  endAll(): void {
    for (const run of this.#runs.values()) {
      this.#closeChildren(run);
      run.span.end();
    }
    this.#runs.clear();
    this.#paused.clear();
  }

  #toolSpan(run: ThreadRun, event: ToolCallEvent | ToolErrorEvent): Span {
    const attributes: Attributes = {
      [a.GEN_AI_OPERATION_NAME]: 'execute_tool',
      [a.GEN_AI_TOOL_NAME]: event.name,
      [a.GEN_AI_TOOL_TYPE]: 'function',
      [a.GEN_AI_TOOL_CALL_ID]: event.toolCallId,
      [a.SKEIN_NODE_ID]: event.nodeId,
    };
    if (this.#captureContent && 'arguments' in event)
      attributes[a.GEN_AI_TOOL_CALL_ARGUMENTS] = event.arguments;
    return this.#bounds.start(
      `execute_tool ${event.name}`,
      SpanKind.INTERNAL,
      attributes,
      (run.node ?? run).context,
    );
  }

  /** The thread's open run; a resumed thread (no `thread:started`) opens one on its first event. */
  #runFor(facts: ThreadFacts): ThreadRun {
    const run = this.#runs.get(facts.threadId);
    if (run) return run;
    const paused = this.#paused.get(facts.threadId);
    return this.#start(facts, paused?.workflowId, paused?.workflowVersion);
  }

  #start(
    facts: ThreadFacts,
    workflowId: string | undefined,
    workflowVersion: string | undefined,
  ): ThreadRun {
    const attributes = threadAttributes(facts);
    if (workflowId !== undefined) {
      attributes[a.GEN_AI_WORKFLOW_NAME] = workflowId;
      attributes[a.SKEIN_WORKFLOW_ID] = workflowId;
    }
    if (workflowVersion !== undefined) attributes[a.SKEIN_WORKFLOW_VERSION] = workflowVersion;
    const links: Link[] = [];
    let parent: Context;
    const paused = this.#paused.get(facts.threadId);
    if (paused) {
      // A resumed run is a child of the run that paused (same trace) and links to it.
      this.#paused.delete(facts.threadId);
      attributes[a.SKEIN_THREAD_RESUMED] = true;
      parent = trace.setSpanContext(context.active(), paused.spanContext);
      links.push({
        context: paused.spanContext,
        attributes: { [a.SKEIN_LINK_KIND]: 'resumed-from' },
      });
    } else {
      const parentRun =
        facts.parentThreadId === undefined ? undefined : this.#runs.get(facts.parentThreadId);
      // A branch or child thread hangs under the node that started it, else under its parent.
      parent = parentRun ? (parentRun.node ?? parentRun).context : context.active();
    }
    const span = this.#bounds.start(
      workflowId === undefined ? 'invoke_workflow' : `invoke_workflow ${workflowId}`,
      SpanKind.INTERNAL,
      attributes,
      parent,
      links,
    );
    const run: ThreadRun = {
      span,
      context: trace.setSpan(parent, span),
      workflowId,
      workflowVersion,
      node: undefined,
      llm: undefined,
      tools: new Map(),
      endedTools: new Set(),
    };
    this.#runs.set(facts.threadId, run);
    return run;
  }

  /** A thread starting again while a run of it is open: the old run will never end otherwise. */
  #abandon(threadId: string): void {
    const run = this.#runs.get(threadId);
    if (!run) return;
    this.#runs.delete(threadId);
    const error = { code: 'ABANDONED', message: 'the thread started again before this run ended' };
    this.#closeChildren(run, error);
    fail(run.span, error, this.#bounds.limit);
    run.span.end();
  }

  /** Ends the open model, tool and node spans, with an error status when `error` is given. */
  #closeChildren(run: ThreadRun, error?: Failure): void {
    for (const span of run.tools.values()) {
      if (error) fail(span, error, this.#bounds.limit);
      span.end();
    }
    run.tools.clear();
    if (run.llm) {
      if (error) fail(run.llm, error, this.#bounds.limit);
      run.llm.end();
      run.llm = undefined;
    }
    if (run.node && error) fail(run.node.span, error, this.#bounds.limit);
    this.#closeNode(run);
  }

  #closeNode(run: ThreadRun): void {
    run.node?.span.end();
    run.node = undefined;
    run.endedTools.clear();
  }
}
