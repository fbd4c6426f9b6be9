/** One update for the page: an engine event's name and a small payload, or `checkpoint`. */
export interface LiveUpdate {
  readonly event: string;
  readonly data: Readonly<Record<string, unknown>>;
}

export type SendUpdate = (update: LiveUpdate) => void;

/** Where a thread's live updates come from, shared by every open stream. */
export interface LiveFeed {
  /**
   * Calls `send` for each update of `threadId` until the returned function is called. Resolves
   * once what happens next will be seen.
   */
  subscribe(threadId: string, send: SendUpdate): Promise<() => void>;
}
