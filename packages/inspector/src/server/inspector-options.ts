import type { SkeinEngine } from '@skein/core';
import type { InspectorStore } from '../stores/inspector-store.js';

export interface InspectorOptions {
  /** Where the threads are: any `CheckpointStore` (only its reading methods are used). */
  readonly store: InspectorStore;
  /**
   * The engine running the threads, in this process. With it, live updates come from its events
   * (as they happen) and the page draws the whole workflow graph; without it, the store is polled.
   */
  readonly engine?: SkeinEngine;
  /** Port on 127.0.0.1; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Lets the page answer paused threads and approve tool calls (needs `engine`). Default false. */
  readonly allowResume?: boolean;
  /**
   * Lets the page fork a thread from any of its checkpoints (needs `engine`). Default false. A
   * fork is a new thread that runs on from there (model calls, tools), so this is its own
   * permission, not part of `allowResume`.
   */
  readonly allowFork?: boolean;
  /** How often the store is polled for new checkpoints without an engine (default 500 ms). */
  readonly pollIntervalMs?: number;
  /**
   * The largest request body read, in bytes (default 65,536; at most 67,108,864). A larger one is
   * refused with 413 from its Content-Length alone, or as soon as a chunked one passes the limit.
   */
  readonly maxBodyBytes?: number;
}

export interface RunningInspector {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  readonly port: number;
  /** Stops the server and ends open live streams (the store stays open: it is the caller's). */
  close(): Promise<void>;
}
