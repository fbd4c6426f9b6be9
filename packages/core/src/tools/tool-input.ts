import type { JsonSchema } from '@skein/spec';

// Symbol.for, so a request made by one copy of Skein is recognised by another (as `toolOutput`).
const INPUT = Symbol.for('skein.tool-input-request');

/** What a tool asks a person for when it cannot go on without them (`pauseForInput`). */
export interface ToolInputRequest {
  /** What the person is asked, as the pause shows it (an MCP elicitation, an A2A message, a UI). */
  readonly prompt: string;
  /** The answer's JSON Schema: the answer is checked against it before the tool sees it. */
  readonly input?: JsonSchema;
  /**
   * Plain JSON the tool gets back with the answer (a remote task's id, say): the pause is
   * stored, so the call that goes on may run in another process, after a restart.
   */
  readonly state?: unknown;
}

/** A `ToolInputRequest` as a tool returns it. */
export interface ToolInputPause extends ToolInputRequest {
  readonly [INPUT]: true;
}

/** What a call that asked for input gets when it runs again with the answer. */
export interface ToolInputAnswer {
  /** The person's answer (it matched `input`, when the request had one). */
  readonly answer: unknown;
  /** The request's `state`, as it was stored. */
  readonly state: unknown;
}

/**
 * Returned from a tool's `execute`: the thread pauses for a person's answer (PAUSED, a
 * `user-input` pause with the prompt and schema), and the call runs again with the answer in
 * `context.answered` when the thread is resumed. The round's other calls keep their results; the
 * model sees the round only once every call has one. Mastra's `suspend()` in a tool and
 * LangGraph's `interrupt()` inside a tool do the same.
 */
export function pauseForInput(request: ToolInputRequest): ToolInputPause {
  return {
    [INPUT]: true,
    prompt: request.prompt,
    ...(request.input === undefined ? {} : { input: request.input }),
    ...(request.state === undefined ? {} : { state: request.state }),
  };
}

export function isToolInputPause(value: unknown): value is ToolInputPause {
  return typeof value === 'object' && value !== null && INPUT in value;
}
