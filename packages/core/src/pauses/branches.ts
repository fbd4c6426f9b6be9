import { ThreadError } from '../errors/thread-error.js';
import { type Fail, isRecord, requireSchema, requireString } from '../util/stored-fields.js';
import { BRANCH_WAIT_KINDS, isBranchWaitReason } from './branch-wait-kinds.js';
import type { EndedBy, PauseKind, PauseWake } from './pause-kind.js';
import { pauseOfKind } from './pause-of-kind.js';
import type { BranchWait, PendingInteraction } from './pending-interaction.js';

/** `{ branch, input }`: an answer for one waiting branch (the engine adds `timedOut`). */
export interface BranchAnswer {
  readonly branch: string;
  readonly input: unknown;
  readonly timedOut?: boolean;
}

function isBranchAnswer(value: unknown): value is BranchAnswer {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { branch?: unknown }).branch === 'string' &&
    (value as { input?: unknown }).input !== undefined
  );
}

/** The waiting branch `input` answers; refused unless it names one that waits. */
export function answeredBranch(
  threadId: string,
  waiting: readonly BranchWait[],
  input: unknown,
): { readonly answer: BranchAnswer; readonly wait: BranchWait } {
  const wait = isBranchAnswer(input) ? waiting.find((w) => w.path === input.branch) : undefined;
  if (!wait)
    throw ThreadError.resumeInput(
      threadId,
      `branches wait for input: answer one with { branch, input }, branch one of ${waiting.map((w) => JSON.stringify(w.path)).join(', ')}`,
    );
  return { answer: input as BranchAnswer, wait };
}

/** The earliest wake of the branches that have one (a branch's own thread has none). */
function earliestWake(waiting: readonly BranchWait[]): PauseWake | undefined {
  let first: PauseWake | undefined;
  let firstAt = Number.NaN;
  for (const wait of waiting) {
    const wake = BRANCH_WAIT_KINDS[wait.reason].wake(wait);
    const at = wake ? Date.parse(wake.at) : Number.NaN;
    if (wake && !Number.isNaN(at) && (!first || at < firstAt)) {
      first = { ...wake, branch: wait.path };
      firstAt = at;
    }
  }
  return first;
}

/** The engine wakes the branches only when none of them waits for a caller. */
function endedBy(waiting: readonly BranchWait[]): EndedBy {
  return waiting.every((w) => BRANCH_WAIT_KINDS[w.reason].endedBy === 'engine')
    ? 'engine'
    : 'caller';
}

const paths = (waiting: readonly BranchWait[]) =>
  waiting.map((w) => JSON.stringify(w.path)).join(', ');

function checkBranchWait(wait: unknown, at: string, fail: Fail): void {
  if (!isRecord(wait)) fail(at, 'must be an object');
  requireString(wait.path, `${at}.path`, fail);
  requireString(wait.threadId, `${at}.threadId`, fail);
  if (!isBranchWaitReason(wait.reason))
    fail(
      `${at}.reason`,
      `must be ${Object.keys(BRANCH_WAIT_KINDS)
        .map((r) => JSON.stringify(r))
        .join(', ')
        .replace(/, ([^,]*)$/, ' or $1')}`,
    );
  requireString(wait.prompt, `${at}.prompt`, fail, true);
  BRANCH_WAIT_KINDS[wait.reason].checkStored(wait, at, fail);
  for (const key of ['wakeAt', 'event', 'deadline'])
    requireString(wait[key], `${at}.${key}`, fail, true);
  requireSchema(wait.input, `${at}.input`, fail);
}

/**
 * Branches or child threads of a node (PARALLEL, MAP, SUBWORKFLOW, a workflow tool) that wait,
 * each for its own input: a caller answers one with `{ branch, input }`, the engine wakes the
 * ones that sleep or wait for events. Nested waits are flattened, their paths joined by `/`.
 */
export const branchesPause = Object.freeze<PauseKind<'branches'>>({
  kind: 'branches',
  endedBy: (pending) => endedBy(pending.waiting),
  checkAnswer: (threadId, pending, input) => {
    const { answer, wait } = answeredBranch(threadId, pending.waiting, input);
    BRANCH_WAIT_KINDS[wait.reason].checkAnswer(wait, answer.input);
  },
  // A branch that sleeps or waits for an event is the engine's to wake, as a thread is.
  refuseCaller: (pending, input) => {
    const branch = (input as { branch?: unknown } | null)?.branch;
    const wait = pending.waiting.find((w) => w.path === branch);
    const kind = wait && BRANCH_WAIT_KINDS[wait.reason];
    if (!wait || kind?.endedBy !== 'engine') return undefined;
    return `branch "${wait.path}" ${kind.waitingFor(wait)}; the engine wakes it`;
  },
  wake: (pending) => earliestWake(pending.waiting),
  wakeInput: (pending, wake) => {
    const wait = pending.waiting.find((w) => w.path === wake.branch);
    const input = wait ? BRANCH_WAIT_KINDS[wait.reason].wakeInput(wait) : null;
    return { branch: wake.branch, input, ...(wake.timedOut ? { timedOut: true } : {}) };
  },
  signal: () => undefined,
  waitingFor: (pending) =>
    endedBy(pending.waiting) === 'engine'
      ? `its branches ${paths(pending.waiting)} sleep or wait for events; the engine wakes them`
      : 'it waits for its branches: answer them with resume(thread, { branch, input })',
  details: (pending) => ({ reason: 'branches', branches: pending.waiting.map((w) => w.path) }),
  branchWaits: (pending, at) =>
    pending.waiting.map((w) => ({ ...w, path: `${at.path}/${w.path}` })),
  takesMessage: false,
  interrupt: () => undefined,
  upgrade: () => ({ refused: 'it waits on child threads, which run their own versions' }),
  checkStored: (pending: Record<string, unknown>, fail: Fail) => {
    const waiting = pending.waiting;
    if (!Array.isArray(waiting)) fail('state.pending.waiting', 'must be an array');
    waiting.forEach((wait: unknown, i) => {
      checkBranchWait(wait, `state.pending.waiting[${i}]`, fail);
    });
  },
});

/**
 * The waiting branch of thread `threadId` that waits for an outside event, when `pending` is an
 * unclaimed branches pause holding one: a signal to that branch claims it through this thread.
 */
export function signalledBranch(
  pending: PendingInteraction | undefined,
  threadId: string,
): BranchWait | undefined {
  const branches = pauseOfKind(pending, 'branches');
  if (!branches || branches.answer) return undefined;
  return branches.waiting.find(
    (w) => w.threadId === threadId && BRANCH_WAIT_KINDS[w.reason].signal(w) !== undefined,
  );
}
