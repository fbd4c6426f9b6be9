import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { BuildThreadOptions, PrincipalEngine, SkeinEngine, ThreadContext } from '@skein/core';
import { InvalidArgumentError, principalProblem, SkeinError } from '@skein/spec';
import { McpCallError } from '../errors/mcp-call-error.js';
import { errorResult, reportResult, trippedRefusal } from '../report/call-result.js';
import { threadReport } from '../report/thread-report.js';
import type { CallExtra } from '../run/call-extra.js';
import { type FollowOptions, followRun } from '../run/follow-run.js';
import type { Session } from '../run/session.js';
import { ThreadDirectory } from '../threads/thread-directory.js';
import { newThreadId } from '../threads/thread-id.js';
import { checkArgumentSize } from '../tools/argument-size.js';
import { CONTROL_TOOL_LIST, getThreadArguments, resumeArguments } from '../tools/control-tools.js';
import { GET_THREAD_TOOL, RESUME_TOOL, type ToolNames } from '../tools/tool-names.js';
import { workflowArguments } from '../tools/workflow-arguments.js';
import { type WorkflowTool, workflowCatalog } from '../tools/workflow-catalog.js';
import {
  type McpServerOptions,
  type ResolvedOptions,
  resolveOptions,
} from './mcp-server-options.js';

/**
 * What every MCP session of one engine shares: the offered tools, the threads clients may find
 * by id, and how a call runs. Sessions (an HTTP server has one per client) differ only in who
 * they answer, so a thread started in one can be resumed in another.
 */
export class WorkflowService {
  readonly engine: SkeinEngine;
  readonly options: ResolvedOptions;
  readonly #names: ToolNames;
  readonly #workflows: ReadonlyMap<string, WorkflowTool>;
  readonly #threads: ThreadDirectory;
  readonly #createThread: (workflowId: string, options: BuildThreadOptions) => ThreadContext;
  readonly #follow: FollowOptions;

  constructor(engine: SkeinEngine, options: McpServerOptions) {
    if (typeof (engine as Partial<SkeinEngine> | undefined)?.createThread !== 'function')
      throw new InvalidArgumentError('engine', 'createMcpServer needs a SkeinEngine');
    this.engine = engine;
    this.options = resolveOptions(options);
    const { names, tools } = workflowCatalog(engine, options.workflows);
    this.#names = names;
    this.#workflows = tools;
    this.#threads = new ThreadDirectory(
      engine,
      new Set([...tools.values()].map((t) => t.workflowId)),
    );
    this.#createThread = options.createThread ?? ((id, o) => engine.createThread(id, o));
    this.#follow = {
      maxSteps: this.options.maxSteps,
      elicitationTimeoutMs: this.options.elicitationTimeoutMs,
      sampling: this.options.sampling,
    };
  }

  /** Every tool, as `tools/list` answers: the workflows, then `resume_thread` and `get_thread`. */
  listTools(): Tool[] {
    return [...[...this.#workflows.values()].map((w) => w.tool), ...CONTROL_TOOL_LIST];
  }

  /**
   * The caller a verified access token names (`principalOf`), checked; undefined when
   * `principalOf` names no one. One that is not a valid principal is the app's mistake:
   * `PRINCIPAL_INVALID`.
   */
  principalOf(auth: AuthInfo): string | undefined {
    const principal: unknown = this.options.principalOf(auth);
    if (principal === undefined) return undefined;
    const problem = principalProblem(principal);
    if (problem)
      throw new SkeinError(
        'PRINCIPAL_INVALID',
        `principalOf named no caller for the token of client ${auth.clientId}: ${problem}`,
      );
    return principal as string;
  }

  /** The threads a client may find by id. */
  get threads(): ThreadDirectory {
    return this.#threads;
  }

  /**
   * The caller of a request's verified token (none without one); a token naming no one is
   * refused (`PRINCIPAL_INVALID`).
   */
  tokenCaller(auth: AuthInfo | undefined): string | undefined {
    if (auth === undefined) return undefined;
    const principal = this.principalOf(auth);
    if (principal === undefined)
      throw new SkeinError(
        'PRINCIPAL_INVALID',
        `principalOf named no caller for the token of client ${auth.clientId}`,
      );
    return principal;
  }

  /**
   * Answers one `tools/call` of `session`; throws only the JSON-RPC error of an unknown tool. The
   * caller is the one the session was opened by; without one, the call's verified token names it,
   * if any. A caller's threads are its own: another's is THREAD_NOT_FOUND, as one not there.
   */
  async call(
    name: string,
    args: unknown,
    extra: CallExtra,
    session: Session,
  ): Promise<CallToolResult> {
    try {
      const caller = session.principal ?? this.tokenCaller(extra.authInfo);
      checkArgumentSize(name, args, this.options.maxArgumentBytes);
      if (name === RESUME_TOOL) return await this.#resume(args, extra, session, caller);
      if (name === GET_THREAD_TOOL) {
        const { threadId } = getThreadArguments(args);
        return reportResult(threadReport(await this.#threads.find(threadId, caller)), false);
      }
      const workflow = this.#workflows.get(name);
      if (workflow === undefined || this.#names.workflowOf(name) !== workflow.workflowId)
        throw McpCallError.unknownTool(
          name,
          this.listTools().map((t) => t.name),
        );
      return await this.#start(name, workflow, args, extra, session, caller);
    } catch (error) {
      return errorResult(error);
    }
  }

  /** What runs a caller's threads: the engine, or the caller's view of it. */
  #runner(principal: string | undefined): SkeinEngine | PrincipalEngine {
    return principal === undefined ? this.engine : this.engine.forPrincipal(principal);
  }

  async #start(
    name: string,
    workflow: WorkflowTool,
    args: unknown,
    extra: CallExtra,
    session: Session,
    principal: string | undefined,
  ): Promise<CallToolResult> {
    const { variables, message } = workflowArguments(name, workflow.input, args);
    let thread: ThreadContext;
    try {
      thread = this.#createThread(workflow.workflowId, {
        threadId: newThreadId(),
        variables,
        ...(message === undefined ? {} : { input: message }),
        ...(principal === undefined ? {} : { principal }),
      });
    } catch (error) {
      // The engine checks the variables against the workflow's schema as it builds the thread.
      if (SkeinError.hasCode(error, 'INVALID_VARIABLES') || InvalidArgumentError.isInstance(error))
        throw McpCallError.invalidArguments(name, '', error.message, error);
      throw error;
    }
    // A `createThread` of the app's that dropped the principal would hand out a thread no caller
    // could find again (or anyone could): refused before it runs.
    if (thread.state.principal !== principal)
      throw new SkeinError(
        'THREAD_PRINCIPAL_MISMATCH',
        `createThread built a thread for ${JSON.stringify(thread.state.principal)}, not for the caller: pass options.principal on`,
      );
    this.#threads.remember(thread);
    const runner = this.#runner(principal);
    await followRun(this.engine, runner, session, extra, thread, undefined, this.#follow);
    return reportResult(threadReport(thread), true);
  }

  async #resume(
    args: unknown,
    extra: CallExtra,
    session: Session,
    principal: string | undefined,
  ): Promise<CallToolResult> {
    const { threadId, input } = resumeArguments(args);
    const thread = await this.#threads.find(threadId, principal);
    const status = thread.status;
    if (status === 'COMPLETED') return reportResult(threadReport(thread), false);
    // A guardrail stopped it: nothing runs it again.
    const tripped = status === 'FAILED' ? trippedRefusal(threadReport(thread)) : undefined;
    if (tripped) return tripped;
    // Stored as RUNNING but run by no one here: its process died, and the engine takes the thread
    // over once that process's lease has expired (THREAD_LEASED until then).
    if (thread.running || this.engine.isRunning(threadId))
      throw McpCallError.notResumable(
        threadId,
        status,
        'it is running; get_thread shows how it goes',
      );
    if (status === 'PAUSED' && input === undefined)
      throw McpCallError.notResumable(threadId, status, 'it waits for input, and none was given');
    if (status !== 'PAUSED' && input !== undefined)
      throw McpCallError.notResumable(
        threadId,
        status,
        'it waits for no input; call resume_thread with the thread id alone to run it on',
      );
    await followRun(
      this.engine,
      this.#runner(principal),
      session,
      extra,
      thread,
      status === 'PAUSED' ? { input } : undefined,
      this.#follow,
    );
    return reportResult(threadReport(thread), true);
  }
}
