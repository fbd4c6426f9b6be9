import type { LLMMessage } from '@skein/spec';

/** What one `skein_thread` job asks a worker to do with a thread. */
export type ThreadJob =
  | {
      readonly op: 'start';
      readonly threadId: string;
      readonly workflowId: string;
      readonly input?: unknown;
      readonly variables?: Readonly<Record<string, unknown>>;
      /** Messages the thread starts with (a system prompt), before `input`. */
      readonly messages?: readonly LLMMessage[];
    }
  | { readonly op: 'resume'; readonly threadId: string; readonly input: unknown }
  /** Bring the thread to rest: continue a handed-back thread, settle a cancellation. */
  | { readonly op: 'advance'; readonly threadId: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads a job payload written by the client; anything else is not a Skein job. */
export function parseThreadJob(payload: unknown): ThreadJob | undefined {
  if (!isRecord(payload) || typeof payload.threadId !== 'string') return undefined;
  const threadId = payload.threadId;
  switch (payload.op) {
    case 'start':
      if (typeof payload.workflowId !== 'string') return undefined;
      if (payload.variables !== undefined && !isRecord(payload.variables)) return undefined;
      if (payload.messages !== undefined && !Array.isArray(payload.messages)) return undefined;
      return {
        op: 'start',
        threadId,
        workflowId: payload.workflowId,
        ...(payload.input === undefined ? {} : { input: payload.input }),
        ...(payload.variables === undefined ? {} : { variables: payload.variables }),
        // The engine checks each message when it builds the thread.
        ...(payload.messages === undefined
          ? {}
          : { messages: payload.messages as readonly LLMMessage[] }),
      };
    case 'resume':
      return { op: 'resume', threadId, input: payload.input ?? null };
    case 'advance':
      return { op: 'advance', threadId };
    default:
      return undefined;
  }
}
