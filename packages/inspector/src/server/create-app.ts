import type { SkeinEngine } from '@skein/core';
import { EVENT_STREAM_HEADERS, HttpRequestError, readJsonBody } from '@skein/http';
import { CheckpointNotFoundError } from '@skein/spec';
import { Hono } from 'hono';
import { filterThreads } from '../model/filter-threads.js';
import type { InspectorStore } from '../stores/inspector-store.js';
import { checkRequest } from './check-request.js';
import { EngineFeed } from './engine-feed.js';
import { errorResponse } from './error-response.js';
import { forkingEngine, forkPoint, startFork } from './fork-thread.js';
import { liveUpdateStream } from './live-stream.js';
import { OpenStreams } from './open-streams.js';
import type { PageFile } from './page-files.js';
import { partHeaders } from './part-headers.js';
import { readPart } from './read-part.js';
import { claimThread, resumeInput, resumingEngine } from './resume-thread.js';
import { securityHeaders } from './security-headers.js';
import { StoreFeed } from './store-feed.js';
import { ThreadReader } from './thread-reader.js';

export interface AppOptions {
  readonly store: InspectorStore;
  readonly engine: SkeinEngine | undefined;
  readonly allowResume: boolean;
  readonly allowFork: boolean;
  readonly pollIntervalMs: number;
  readonly maxBodyBytes: number;
  readonly page: ReadonlyMap<string, PageFile> | undefined;
  /** The `Host` values to answer; filled in once the server knows its port. */
  readonly hosts: ReadonlySet<string>;
  /** Aborted when the inspector closes: ends live streams. */
  readonly closing: AbortSignal;
}

const NO_PAGE = `<!doctype html><meta charset="utf-8"><title>Skein inspector</title>
<p>The page of @skein/inspector was not built. Run <code>pnpm --filter @skein/inspector build</code>; the JSON API is at <a href="/api/threads">/api/threads</a>.</p>`;

const READ = ['GET', 'HEAD'];

function only(allowed: readonly string[]) {
  return (c: { req: { method: string } }): never => {
    throw HttpRequestError.methodNotAllowed(c.req.method, allowed);
  };
}

/** The inspector's routes: the JSON API under /api, the page everywhere else. */
export function createApp(options: AppOptions): Hono {
  const { store, engine, allowResume, allowFork, maxBodyBytes, page } = options;
  const reader = new ThreadReader(store, engine);
  const feed =
    engine === undefined ? new StoreFeed(store, options.pollIntervalMs) : new EngineFeed(engine);
  const streams = new OpenStreams(options.closing);
  const app = new Hono();

  app.onError(errorResponse);
  // In this order: every answer gets the headers, and a foreign Host, a write from another origin
  // or a malformed path is refused before any route (or body) is looked at.
  app.use(securityHeaders, checkRequest(options.hosts));

  app.get('/api/info', (c) =>
    c.json({
      live: engine === undefined ? 'poll' : 'engine',
      allowResume: allowResume && engine !== undefined,
      allowFork: allowFork && engine !== undefined,
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
    const running = resumingEngine(engine, allowResume, threadId);
    const input = resumeInput(await readJsonBody(c.req.raw, maxBodyBytes));
    const claimed = await claimThread(running, threadId, input, (error) =>
      running.events.emit('warning', {
        threadId,
        code: 'INSPECTOR_RESUME_FAILED',
        message: error instanceof Error ? error.message : String(error),
      }),
    );
    return c.json({ accepted: true, ...claimed }, 202);
  });

  app.get('/api/threads/:id/history', async (c) =>
    c.json({ entries: await reader.history(c.req.param('id')) }),
  );

  app.get('/api/threads/:id/messages/:position/parts/:part', async (c) => {
    const served = await readPart(
      store,
      c.req.param('id'),
      c.req.param('position'),
      c.req.param('part'),
    );
    return c.body(served.bytes as Uint8Array<ArrayBuffer>, 200, partHeaders(served));
  });

  app.post('/api/threads/:id/fork', async (c) => {
    const threadId = c.req.param('id');
    const running = forkingEngine(engine, allowFork, threadId);
    const at = forkPoint(await readJsonBody(c.req.raw, maxBodyBytes));
    const fork = await startFork(running, threadId, at, (error, forkId) =>
      running.events.emit('warning', {
        threadId: forkId,
        code: 'INSPECTOR_FORK_FAILED',
        message: error instanceof Error ? error.message : String(error),
      }),
    );
    return c.json({ accepted: true, ...fork }, 202);
  });

  app.get('/api/threads/:id/events', async (c) => {
    const threadId = c.req.param('id');
    // A stream for a thread that is not there would poll (or listen) for nothing until closed.
    if ((await store.list(threadId)).length === 0) throw new CheckpointNotFoundError(threadId);
    // Hono answers HEAD through this handler and drops the body: a stream started here would
    // never be read, so never end, and keep its subscription for good.
    if (c.req.method === 'HEAD') return c.body(null, 200, EVENT_STREAM_HEADERS);
    return liveUpdateStream(c, threadId, feed, streams);
  });

  app.all('/api/info', only(READ));
  app.all('/api/threads', only(READ));
  app.all('/api/threads/:id', only(READ));
  app.all('/api/threads/:id/events', only(READ));
  app.all('/api/threads/:id/history', only(READ));
  app.all('/api/threads/:id/messages/:position/parts/:part', only(READ));
  app.all('/api/threads/:id/resume', only(['POST']));
  app.all('/api/threads/:id/fork', only(['POST']));
  app.all('/api/*', (c) => {
    throw HttpRequestError.routeNotFound(c.req.path);
  });

  app.get('*', (c) => {
    if (page === undefined) return c.html(NO_PAGE);
    const file = page.get(c.req.path) ?? page.get('/index.html')!;
    return c.body(file.body as Uint8Array<ArrayBuffer>, 200, { 'content-type': file.type });
  });
  app.all('*', only(READ));

  return app;
}
