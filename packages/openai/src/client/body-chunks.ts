/** The parts of a web `ReadableStream` this package reads (typed locally: no DOM lib here). */
export interface ByteStream {
  getReader(): {
    read(): Promise<{ done: boolean; value?: Uint8Array | undefined }>;
    cancel(reason?: unknown): Promise<void>;
    releaseLock(): void;
  };
}

/**
 * Yields the reads of a response body and calls `onRead` after each (the idle watchdog's
 * heartbeat). Leaving early (an error, a throwing consumer) cancels the body, so the connection
 * is not left half-read.
 */
export async function* bodyChunks(
  body: ByteStream,
  onRead: () => void,
): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  let finished = false;
  try {
    while (true) {
      const { done, value } = await reader.read();
      onRead();
      if (done) {
        finished = true;
        return;
      }
      if (value !== undefined) yield value;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
