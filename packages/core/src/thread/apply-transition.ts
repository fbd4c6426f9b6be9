import { InvalidArgumentError } from '@skein/spec';
import { castDraft, produce } from 'immer';
import { withWebhook } from '../pauses/event.js';
import { pauseKindOf } from '../pauses/pause-kinds.js';
import { withEntry } from '../util/with-entry.js';
import type { PendingInteraction, ThreadState, ThreadStatus } from './thread-state.js';
import type { ThreadTransition } from './thread-transition.js';

/** A pause the engine ends (time, an outside event) is WAITING; one a caller answers, PAUSED. */
function waitStatus(pending: PendingInteraction): ThreadStatus {
  return pauseKindOf(pending).endedBy(pending) === 'engine' ? 'WAITING' : 'PAUSED';
}

/** `state` with `changes`, as a new frozen object. */
function next(state: ThreadState, changes: Partial<ThreadState>): ThreadState {
  return Object.freeze({ ...state, ...changes });
}

/** Input guardrails' marks only move forward. */
function withGuarded(state: ThreadState, marks: Readonly<Record<string, number>>): ThreadState {
  const guarded: Record<string, number> = { ...state.guarded };
  for (const [name, at] of Object.entries(marks)) if (!(guarded[name]! >= at)) guarded[name] = at;
  return { ...state, guarded: Object.freeze(guarded) };
}

/**
 * The next thread state after `transition`: the one reducer of thread state. Pure: `state` is
 * never modified and the result is a new frozen object (or `state` itself, restored). Top-level
 * fields, what every step changes, are spread; the nested edits (a pause's answer, the fired
 * triggers, the dynamic tools) are immer drafts.
 */
export function applyTransition(state: ThreadState, transition: ThreadTransition): ThreadState {
  switch (transition.type) {
    case 'run-started':
      return next(state, { status: 'RUNNING', error: undefined });
    case 'node-completed': {
      const { output } = transition;
      const recorded = output !== undefined;
      const from = transition.guarded ? withGuarded(state, transition.guarded) : state;
      return Object.freeze({
        ...from,
        step: transition.step + 1,
        currentNodeId: transition.next,
        pending: undefined,
        nodeOutputs: recorded
          ? Object.freeze(withEntry(from.nodeOutputs, transition.nodeId, output))
          : from.nodeOutputs,
        lastOutput: recorded ? output : from.lastOutput,
        output: transition.end ? output : from.output,
        variables: transition.variables ?? from.variables,
        toolFailures: transition.toolFailures ?? from.toolFailures,
      });
    }
    case 'jumped':
      return next(state, { currentNodeId: transition.next });
    case 'paused':
      return next(transition.guarded ? withGuarded(state, transition.guarded) : state, {
        status: waitStatus(transition.pending),
        pending: transition.pending,
        ...(transition.toolFailures ? { toolFailures: transition.toolFailures } : {}),
      });
    case 'resume-claimed':
      if (!state.pending)
        throw new InvalidArgumentError(
          'state.pending',
          `thread ${state.threadId} has no pause to claim`,
        );
      return produce(state, (draft) => {
        draft.status = 'RUNNING';
        draft.error = undefined;
        draft.pending!.answer = castDraft(
          transition.timedOut ? { input: null, timedOut: true } : { input: transition.input },
        );
      });
    case 'answer-refused':
      if (!state.pending?.answer)
        throw new InvalidArgumentError(
          'state.pending',
          `thread ${state.threadId} has no claimed answer to give back`,
        );
      return produce(state, (draft) => {
        draft.status = waitStatus(state.pending!);
        delete draft.pending!.answer;
      });
    case 'webhook-created': {
      const pending = withWebhook(state.pending, transition.webhook);
      if (!pending)
        throw new InvalidArgumentError(
          'state.pending',
          `thread ${state.threadId} does not wait for an event`,
        );
      return next(state, { pending });
    }
    case 'forked':
      // A fork has an inbox of its own: the messages its origin took are just conversation.
      return next(state, {
        forkedFrom: Object.freeze({ ...transition.from }),
        inboxTaken: undefined,
      });
    case 'inbox-taken':
      if (!Number.isSafeInteger(transition.seq) || transition.seq <= (state.inboxTaken ?? 0))
        throw new InvalidArgumentError(
          'seq',
          `thread ${state.threadId}: inbox messages are taken in order, past ${state.inboxTaken ?? 0}; got ${transition.seq}`,
        );
      return next(state, { inboxTaken: transition.seq });
    case 'upgraded':
      return next(state, {
        workflowVersion: transition.workflowVersion,
        currentNodeId: transition.currentNodeId,
        pending: transition.pending,
        variables: transition.variables,
        nodeOutputs: transition.nodeOutputs,
      });
    case 'finished':
      return Object.freeze({
        ...(transition.guarded ? withGuarded(state, transition.guarded) : state),
        status: transition.status,
        error: transition.error,
        output: 'output' in transition ? transition.output : state.output,
      });
    case 'reopened':
      return next(state, {
        status: 'PENDING',
        currentNodeId: transition.at,
        output: undefined,
        error: undefined,
        pending: undefined,
      });
    case 'restored':
      if (transition.state.threadId !== state.threadId)
        throw new InvalidArgumentError(
          'state',
          `state belongs to thread ${transition.state.threadId}, not ${state.threadId}`,
        );
      // Whose thread it is is set when it is built and never changes, not even by going back.
      if (transition.state.principal !== state.principal)
        throw new InvalidArgumentError(
          'state.principal',
          `state belongs to principal ${JSON.stringify(transition.state.principal)}, thread ${state.threadId} to ${JSON.stringify(state.principal)}`,
        );
      return transition.state;
    case 'variables-set':
      return next(state, { variables: transition.variables });
    case 'tool-failures-counted':
      return next(state, { toolFailures: transition.toolFailures });
    case 'trigger-fired':
      return produce(state, (draft) => {
        draft.firedTriggers.push(transition.triggerId);
      });
    case 'dynamic-tools-changed':
      return produce(state, (draft) => {
        draft.dynamicTools = [...transition.names];
      });
  }
}
