import type { SkeinEngine } from '@skein/core';
import { CheckpointNotFoundError, SkeinError } from '@skein/spec';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { filterThreads } from '../model/filter-threads.js';
import type { InspectorStore } from '../stores/inspector-store.js';
import type { LiveUpdate } from './live-feed.js';
import { followEngine, followStore } from './live-feed.js';
import type { PageFile } from './page-files.js';
import { resumeThread } from './resume-thread.js';
import { ThreadReader } from './thread-reader.js';

export interface AppOptions {
  readonly store: InspectorStore;
  readonly engine: SkeinEngine | undefined;
  readonly allowResume: boolean;
  readonly pollIntervalMs: number;
  readonly page: ReadonlyMap<string, PageFile> | undefined;
  /** Aborted when the inspector closes: ends live streams. */
  readonly closing: AbortSignal;
}

const STATUS_OF: Readonly<Record<string, 403 | 404 | 409>> = {
  RESUME_NOT_ALLOWED: 403,
  CHECKPOINT_NOT_FOUND: 404,
  THREAD_NOT_PAUSED: 409,
};

const NO_PAGE = `<!doctype html><meta charset="utf-8"><title>Skein inspector</title>
<p>The page of @skein/inspector was not built. Run <code>pnpm --filter @skein/inspector build</code>; the JSON API is at <a href="/api/threads">/api/threads</a>.</p>`;

/** The inspector's routes: the JSON API under /api, the page everywhere else. */
export function createApp(options: AppOptions): Hono {
  const { store, engine, allowResume, pollIntervalMs, page, closing } = options;
  const reader = new ThreadReader(store, engine);
  const app = new Hono();

  app.onError((error, c) => {
    if (SkeinError.isInstance(error))
      return c.json(
        { error: { code: error.code, message: error.message } },
        STATUS_OF[error.code] ?? 400,
      );
    return c.json({ error: { code: 'INTERNAL', message: String(error) } }, 500);
  });

  app.get('/api/info', (c) =>
    c.json({
      live: engine === undefined ? 'poll' : 'engine',
      allowResume: allowResume && engine !== undefined,
    }),
  );

  app.get('/api/threads', async (c) => {
    const all = await reader.summaries();
    const threads = filterThreads(all, {
      status: c.req.query('status'),
      workflow: c.req.query('workflow'),
      text: c.req.query('text'),
    });
    return c.json({ threads, workflows: [...new Set(all.map((t) => t.workflowId))].sort() });
  });

  app.get('/api/threads/:id', async (c) => {
    const threadId = c.req.param('id');
    const detail = await reader.detail(threadId);
    if (detail === undefined) throw new CheckpointNotFoundError(threadId);
    return c.json(detail);
  });

  app.post('/api/threads/:id/resume', async (c) => {
    const threadId = c.req.param('id');
    const body = (await c.req.json().catch(() => ({}))) as { input?: unknown };
    await resumeThread(engine, allowResume, threadId, body.input, (error) =>
      engine?.events.emit('warning', {
        threadId,
        code: 'INSPECTOR_RESUME_FAILED',
        message: error instanceof Error ? error.message : String(error),
      }),
    );
    return c.json({ accepted: true }, 202);
  });

  app.get('/api/threads/:id/events', (c) => {
    const threadId = c.req.param('id');
    return streamSSE(c, async (stream) => {
      const queue: LiveUpdate[] = [];
      let wake: (() => void) | undefined;
      const send = (update: LiveUpdate) => {
        queue.push(update);
        wake?.();
      };
      const stop =
        engine === undefined
          ? await followStore(store, threadId, pollIntervalMs, send)
          : followEngine(engine, threadId, send);
      let end: () => void = () => undefined;
      const done = new Promise<void>((resolve) => {
        end = () => resolve();
        closing.addEventListener('abort', end, { once: true });
        stream.onAbort(end);
      });
      let finished = false;
      void done.then(() => {
        finished = true;
        wake?.();
      });
      await stream.writeSSE({ event: 'ready', data: JSON.stringify({ threadId }) });
      try {
        while (!finished) {
          while (queue.length > 0) {
            const update = queue.shift()!;
            await stream.writeSSE({ event: update.event, data: JSON.stringify(update.data) });
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
            // A comment now and then keeps proxies and idle timeouts from closing the stream.
            setTimeout(resolve, 15_000).unref();
          });
          wake = undefined;
          if (queue.length === 0 && !finished) await stream.write(': keep-alive\n\n');
        }
      } finally {
        stop();
        // The server outlives this stream: its shutdown signal must not keep one listener per
        // stream ever opened.
        closing.removeEventListener('abort', end);
      }
    });
  });

  app.get('*', (c) => {
    if (page === undefined) return c.html(NO_PAGE);
    const file = page.get(c.req.path) ?? page.get('/index.html')!;
    return c.body(file.body as Uint8Array<ArrayBuffer>, 200, { 'content-type': file.type });
  });

  return app;
}
