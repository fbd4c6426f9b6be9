import type { TrippedGuardrail } from '@skein/core';
import { RESUME_TOOL } from '../tools/tool-names.js';
import type { ThreadReport, WaitingFor } from './thread-report.js';

function json(value: unknown): string {
  return JSON.stringify(value);
}

function waitingText(threadId: string, waiting: WaitingFor): string {
  switch (waiting.kind) {
    case 'user-input':
      return [
        `Thread ${threadId} is waiting for an answer${waiting.prompt ? `: ${waiting.prompt}` : '.'}`,
        `To answer, call ${RESUME_TOOL} with ${json({ threadId, input: '<the answer>' })}.`,
      ].join('\n');
    case 'sleep':
      return `Thread ${threadId} is asleep until ${waiting.wakeAt}; it wakes by itself, nothing to answer.`;
    case 'event':
      return `Thread ${threadId} is waiting for the event "${waiting.event}"${waiting.deadline ? ` until ${waiting.deadline}` : ''}; the app delivers it (engine.signal or its webhook), nothing to answer here.`;
    case 'tool-approval':
      return [
        `Thread ${threadId} is waiting for approval of ${waiting.approvals.length} tool call(s):`,
        ...waiting.approvals.map((a) => `- ${a.toolCallId}: ${a.name} ${a.arguments}`),
        `To decide, call ${RESUME_TOOL} with ${json({
          threadId,
          input: {
            approvals: Object.fromEntries(waiting.approvals.map((a) => [a.toolCallId, true])),
          },
        })} (false, or {"approved": false, "reason": "…"}, refuses a call).`,
      ].join('\n');
    case 'branches':
      return [
        `Thread ${threadId} is waiting for ${waiting.branches.length} of its branches:`,
        ...waiting.branches.map(
          (b) => `- ${b.path}: ${b.reason}${b.prompt === undefined ? '' : ` (${b.prompt})`}`,
        ),
        `To answer one, call ${RESUME_TOOL} with ${json({
          threadId,
          input: { branch: waiting.branches[0]?.path ?? '<path>', input: '<its answer>' },
        })}.`,
      ].join('\n');
  }
}

/** Where a guardrail looked, in words. */
function stageText(trip: TrippedGuardrail): string {
  const tool = trip.toolName ? `"${trip.toolName}"` : 'a tool';
  switch (trip.stage) {
    case 'input':
      return 'the input';
    case 'output':
      return "the model's answer";
    case 'tool-call':
      return `the call to ${tool}`;
    default:
      return `the result of ${tool}`;
  }
}

/** A thread a guardrail stopped: which one, on what, why; and that nothing runs it again. */
export function trippedText(threadId: string, trip: TrippedGuardrail): string {
  return [
    `GUARDRAIL_TRIPPED: thread ${threadId} was stopped by guardrail "${trip.name}" on ${stageText(trip)}: ${trip.reason}`,
    `The thread does not run again (${RESUME_TOOL} refuses it); start a new one.`,
  ].join('\n');
}

/** The text content of a result: what a model (or a person) reads of the report. */
export function reportText(report: ThreadReport): string {
  const { threadId, status } = report;
  switch (status) {
    case 'COMPLETED':
      if (report.output === undefined) return `Thread ${threadId} completed (no output).`;
      return typeof report.output === 'string'
        ? report.output
        : JSON.stringify(report.output, null, 2);
    case 'WAITING':
    case 'PAUSED':
      return report.waitingFor
        ? waitingText(threadId, report.waitingFor)
        : `Thread ${threadId} is paused; its pause has been answered and it will go on.`;
    case 'FAILED':
      if (report.error?.guardrail) return trippedText(threadId, report.error.guardrail);
      return `Thread ${threadId} failed: ${report.error ? `${report.error.code}: ${report.error.message}` : 'no reason recorded'}.\nCall ${RESUME_TOOL} with ${json({ threadId })} to run it again from where it failed.`;
    case 'CANCELLED':
      return `Thread ${threadId} was cancelled.\nCall ${RESUME_TOOL} with ${json({ threadId })} to run it on from where it stopped.`;
    case 'RUNNING':
      return `Thread ${threadId} is running.`;
    case 'PENDING':
      return `Thread ${threadId} has not started yet.`;
  }
}
