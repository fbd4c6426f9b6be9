import type { ThreadContext } from '@skein/core';
import { type ThreadReport, threadReport, type WaitingFor } from '../report/thread-report.js';
import { type TranscriptMessage, transcriptMessage } from './transcript-message.js';

/** What `skein://threads/<id>` reads as (JSON). */
export interface ThreadTranscript {
  readonly threadId: string;
  readonly workflowId: string;
  readonly status: ThreadReport['status'];
  /** PAUSED or WAITING: what it waits for (`kind`, and a question's `prompt`), as `get_thread` says. */
  readonly pending?: WaitingFor;
  readonly output?: unknown;
  readonly error?: ThreadReport['error'];
  /** Every message stored, oldest first (those a summary stands for included). */
  readonly messages: readonly TranscriptMessage[];
}

/** The transcript of `thread` as it is now: `get_thread`'s report with the messages. */
export function threadTranscript(thread: ThreadContext): ThreadTranscript {
  const { waitingFor, ...report } = threadReport(thread);
  return {
    ...report,
    ...(waitingFor === undefined ? {} : { pending: waitingFor }),
    messages: thread.conversation
      .getAllMessages()
      .map((message) => transcriptMessage(message, thread.threadId)),
  };
}
