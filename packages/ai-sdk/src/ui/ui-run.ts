import type { UIChunk } from './ui-chunk.js';

/** Hears a run's parts: each new one, then the end. */
export interface RunFollower {
  chunk(chunk: UIChunk): void;
  end(): void;
}

/**
 * One run's UI parts: every part so far, kept so that a reader who comes late (a browser that
 * reloaded mid-answer) gets the whole answer replayed from its `start`, then follows it live.
 * `prefix` is what a late reader needs before the run's own parts: the answer's earlier parts
 * from the stored conversation, when the run continues an answer (after an approval).
 */
export class UIRun {
  readonly #chunks: UIChunk[] = [];
  readonly #prefix: readonly UIChunk[];
  readonly #followers = new Set<RunFollower>();
  readonly #ended: Promise<void>;
  #resolveEnded!: () => void;
  #done = false;
  /** Cancels the run (the stop endpoint, or the reader of a stream that owns it going away). */
  readonly controller = new AbortController();

  constructor(start: UIChunk, prefix: readonly UIChunk[] = []) {
    this.#chunks.push(start);
    this.#prefix = prefix;
    this.#ended = new Promise((resolve) => (this.#resolveEnded = resolve));
  }

  get done(): boolean {
    return this.#done;
  }

  /** Resolves once the run's last part was sent. */
  get ended(): Promise<void> {
    return this.#ended;
  }

  push(chunk: UIChunk): void {
    if (this.#done) return;
    this.#chunks.push(chunk);
    for (const follower of this.#followers) follower.chunk(chunk);
  }

  end(): void {
    if (this.#done) return;
    this.#done = true;
    for (const follower of this.#followers) follower.end();
    this.#followers.clear();
    this.#resolveEnded();
  }

  /**
   * Gives `follower` the parts so far (with the prefix after the `start` part when `replay` is
   * set), then each new one; returns the function that stops following.
   */
  follow(follower: RunFollower, replay = false): () => void {
    const [start, ...rest] = this.#chunks;
    follower.chunk(start!);
    if (replay) for (const chunk of this.#prefix) follower.chunk(chunk);
    for (const chunk of rest) follower.chunk(chunk);
    if (this.#done) {
      follower.end();
      return () => undefined;
    }
    this.#followers.add(follower);
    return () => this.#followers.delete(follower);
  }

  /** The run's parts as a stream of objects (what `readUIMessageStream` reads). */
  stream(replay = false): ReadableStream<UIChunk> {
    let stop: (() => void) | undefined;
    return new ReadableStream<UIChunk>({
      start: (controller) => {
        stop = this.follow(
          {
            chunk: (chunk) => controller.enqueue(chunk),
            end: () => controller.close(),
          },
          replay,
        );
      },
      cancel: () => stop?.(),
    });
  }
}
