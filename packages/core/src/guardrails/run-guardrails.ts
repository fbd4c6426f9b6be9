import type { LLMMessage, MessageContent } from '@skein/spec';
import type {
  Guardrail,
  GuardrailContext,
  GuardrailStage,
  GuardrailSubject,
  GuardrailVerdict,
} from './guardrail.js';
import { GuardrailError, type GuardrailErrorFacts } from './guardrail-error.js';
import type { GuardrailRegistry } from './guardrail-registry.js';

/** Default time limit of one check. */
const DEFAULT_GUARDRAIL_TIMEOUT_MS = 10_000;

/** A verdict other than `pass`, as the node reports it (events, spans). */
interface GuardrailAction {
  readonly guardrail: string;
  readonly stage: GuardrailStage;
  readonly verdict: Exclude<GuardrailVerdict, { action: 'pass' }>;
  readonly toolCallId?: string;
  readonly toolName?: string;
}

/** Where guardrails run: the thread, the node, the run's signal. */
export interface GuardrailScope {
  readonly registry: GuardrailRegistry;
  readonly threadId: string;
  readonly nodeId: string;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly messages: readonly LLMMessage[];
  readonly signal: AbortSignal | undefined;
  /** Told of every verdict other than `pass`, before a trip is thrown. */
  readonly onAction?: (action: GuardrailAction) => void;
}

/** What the checks of one subject decided, when none tripped. */
export interface GuardOutcome {
  /** A tool call refused: the guardrail and the reason the model is shown. */
  readonly refused?: { readonly guardrail: string; readonly reason: string };
  /** A tool result's content as the redactions left it. */
  readonly content?: MessageContent;
}

const PASSED: GuardOutcome = Object.freeze({});

const ALLOWED: Readonly<Record<GuardrailStage, ReadonlySet<string>>> = {
  input: new Set(['pass', 'trip']),
  output: new Set(['pass', 'trip']),
  'tool-call': new Set(['pass', 'trip', 'refuse']),
  'tool-result': new Set(['pass', 'trip', 'redact']),
};

/** What is wrong with a guardrail's answer for `stage`, or undefined when it is a verdict. */
export function verdictProblem(value: unknown, stage: GuardrailStage): string | undefined {
  if (typeof value !== 'object' || value === null)
    return `it answered ${value === null ? 'null' : typeof value}, not a verdict`;
  const verdict = value as { action?: unknown; reason?: unknown; content?: unknown };
  if (typeof verdict.action !== 'string' || !ALLOWED[stage].has(verdict.action))
    return `its action ${JSON.stringify(verdict.action) ?? 'is missing'} is not one of ${[...ALLOWED[stage]].join(', ')} (stage ${stage})`;
  if (
    (verdict.action === 'trip' || verdict.action === 'refuse') &&
    typeof verdict.reason !== 'string'
  )
    return `a ${verdict.action} needs a reason (a string)`;
  if (
    verdict.action === 'redact' &&
    typeof verdict.content !== 'string' &&
    !Array.isArray(verdict.content)
  )
    return 'a redact needs content (a string or a list of parts)';
  return undefined;
}

function factsOf(name: string, subject: GuardrailSubject, reason: string): GuardrailErrorFacts {
  const call = 'call' in subject ? subject.call : undefined;
  return {
    guardrail: name,
    stage: subject.stage,
    reason,
    ...(call ? { toolCallId: call.id, toolName: call.name } : {}),
  };
}

/**
 * One check under its time limit. Settles with the verdict, or rejects `GUARDRAIL_FAILED` (it
 * threw, ran out of time, answered no verdict) or with the run's abort reason.
 */
function checkOne(
  name: string,
  guardrail: Guardrail,
  subject: GuardrailSubject,
  scope: GuardrailScope,
  group: AbortSignal,
): Promise<GuardrailVerdict> {
  const controller = new AbortController();
  const limit = guardrail.timeoutMs ?? DEFAULT_GUARDRAIL_TIMEOUT_MS;
  const context: GuardrailContext = {
    threadId: scope.threadId,
    nodeId: scope.nodeId,
    variables: scope.variables,
    messages: scope.messages,
    signal: controller.signal,
  };
  return new Promise<GuardrailVerdict>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => {
      controller.abort(group.reason);
      settle(() => reject(group.reason));
    };
    const settle = (then: () => void) => {
      if (timer === undefined) return;
      clearTimeout(timer);
      timer = undefined;
      group.removeEventListener('abort', onAbort);
      then();
    };
    timer = setTimeout(() => {
      const error = GuardrailError.failed(
        factsOf(name, subject, `it did not answer within ${limit} ms`),
      );
      controller.abort(error);
      settle(() => reject(error));
    }, limit);
    if (group.aborted) return onAbort();
    group.addEventListener('abort', onAbort, { once: true });
    // A check that throws synchronously fails like one that rejects.
    new Promise<GuardrailVerdict>((run) => run(guardrail.check(subject, context))).then(
      (verdict) =>
        settle(() => {
          const problem = verdictProblem(verdict, subject.stage);
          if (problem) reject(GuardrailError.failed(factsOf(name, subject, problem)));
          else resolve(verdict);
        }),
      (error: unknown) =>
        settle(() =>
          reject(
            GuardrailError.isInstance(error) && (error as GuardrailError).guardrail === name
              ? error
              : GuardrailError.failed(
                  factsOf(name, subject, error instanceof Error ? error.message : String(error)),
                  error,
                ),
          ),
        ),
    );
  });
}

/** A group signal: aborted when the run is, or when one check decides for all. */
function groupOf(signal: AbortSignal | undefined): AbortController {
  const group = new AbortController();
  if (signal?.aborted) group.abort(signal.reason);
  else signal?.addEventListener('abort', () => group.abort(signal.reason), { once: true });
  return group;
}

function tripped(name: string, subject: GuardrailSubject, verdict: GuardrailVerdict): never {
  const { reason, endsChat } = verdict as { reason: string; endsChat?: boolean };
  throw GuardrailError.tripped({
    ...factsOf(name, subject, reason),
    ...(endsChat === true ? { endsChat: true } : {}),
  });
}

function report(
  scope: GuardrailScope,
  name: string,
  subject: GuardrailSubject,
  verdict: GuardrailVerdict,
): void {
  if (verdict.action === 'pass' || !scope.onAction) return;
  const call = 'call' in subject ? subject.call : undefined;
  scope.onAction({
    guardrail: name,
    stage: subject.stage,
    verdict,
    ...(call ? { toolCallId: call.id, toolName: call.name } : {}),
  });
}

/**
 * Runs the named guardrails on `subject` and resolves with what they decided, or throws
 * `GUARDRAIL_TRIPPED` / `GUARDRAIL_FAILED` (the other checks are aborted). Input, output and
 * tool-call checks run at once, and the first trip or failure decides; tool-result checks run in
 * turn, each seeing the result as the ones before it redacted it. Every name must be registered
 * (workflows are checked when registered; a tool's names when it is first guarded).
 */
export async function runGuardrails(
  names: readonly string[],
  subject: GuardrailSubject,
  scope: GuardrailScope,
): Promise<GuardOutcome> {
  if (names.length === 0) return PASSED;
  const guardrails = names.map((name) => {
    const guardrail = scope.registry.get(name);
    if (!guardrail?.stages.includes(subject.stage))
      throw GuardrailError.failed(
        factsOf(
          name,
          subject,
          guardrail
            ? `it does not check the ${subject.stage} stage`
            : 'no guardrail of that name is registered on the engine',
        ),
      );
    return [name, guardrail] as const;
  });
  const group = groupOf(scope.signal);
  try {
    if (subject.stage === 'tool-result') return await inTurn(guardrails, subject, scope, group);
    let refused: GuardOutcome['refused'];
    await Promise.all(
      guardrails.map(async ([name, guardrail]) => {
        const verdict = await checkOne(name, guardrail, subject, scope, group.signal);
        report(scope, name, subject, verdict);
        if (verdict.action === 'trip') tripped(name, subject, verdict);
        if (verdict.action === 'refuse') refused ??= { guardrail: name, reason: verdict.reason };
      }),
    );
    return refused ? { refused } : PASSED;
  } finally {
    // Checks still running when one decided are told to stop.
    group.abort();
  }
}

async function inTurn(
  guardrails: readonly (readonly [string, Guardrail])[],
  subject: Extract<GuardrailSubject, { stage: 'tool-result' }>,
  scope: GuardrailScope,
  group: AbortController,
): Promise<GuardOutcome> {
  let current = subject;
  let content: MessageContent | undefined;
  for (const [name, guardrail] of guardrails) {
    const verdict = await checkOne(name, guardrail, current, scope, group.signal);
    report(scope, name, current, verdict);
    if (verdict.action === 'trip') tripped(name, current, verdict);
    if (verdict.action === 'redact') {
      content = verdict.content;
      current = { ...current, result: { ...current.result, content } };
    }
  }
  return content === undefined ? PASSED : { content };
}
