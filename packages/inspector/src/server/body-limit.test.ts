import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendOversized } from '../test-support/oversized-body.js';
import { rawRequest } from '../test-support/raw-request.js';
import {
  type ResumableInspector,
  startResumableInspector,
} from '../test-support/resumable-inspector.js';
import type { RunningInspector } from './inspector-options.js';
import { startInspector } from './start-inspector.js';

// Far more than the kernel's socket buffers hold, so a body the server does not read cannot be
// written in full before the answer comes.
const TOTAL = 16 * 1024 * 1024;

let resumable: ResumableInspector;
let readOnly: RunningInspector;

const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  resumable = await startResumableInspector();
  await resumable.pausedPayment('pay-1');
  readOnly = await startInspector({ store: resumable.store, engine: resumable.engine });
});

afterAll(async () => {
  await readOnly.close();
  await resumable.dispose();
});

function resumeUrl(inspector: RunningInspector): string {
  return new URL('/api/threads/pay-1/resume', inspector.url).href;
}

describe('a request body', () => {
  it('is never read when the inspector is read-only: 403 before the body is sent', async () => {
    for (const chunked of [false, true]) {
      const answer = await sendOversized(resumeUrl(readOnly), {
        headers: json,
        total: TOTAL,
        chunked,
      });
      expect({ chunked, status: answer.status, finished: answer.finished }).toEqual({
        chunked,
        status: 403,
        finished: false,
      });
      expect(JSON.parse(answer.body).error.code).toBe('RESUME_NOT_ALLOWED');
    }
  });

  it('is refused from its Content-Length alone (413) when over the limit', async () => {
    const answer = await sendOversized(resumeUrl(resumable.inspector), {
      headers: json,
      total: TOTAL,
      chunked: false,
    });
    expect(answer).toMatchObject({ status: 413, finished: false });
    expect(JSON.parse(answer.body).error.code).toBe('BODY_TOO_LARGE');
    expect((await resumable.store.load('pay-1'))!.state.status).toBe('PAUSED');
  });

  it('is read no further than the limit when chunked (413)', async () => {
    const answer = await sendOversized(resumeUrl(resumable.inspector), {
      headers: json,
      total: TOTAL,
      chunked: true,
    });
    expect(answer).toMatchObject({ status: 413, finished: false });
    expect(answer.sent).toBeLessThan(TOTAL);
    expect(JSON.parse(answer.body).error.code).toBe('BODY_TOO_LARGE');
    expect((await resumable.store.load('pay-1'))!.state.status).toBe('PAUSED');
    expect(resumable.charges()).toBe(0);
  });

  it('is not read for a refused content type or a foreign origin either', async () => {
    for (const headers of [
      { 'content-type': 'text/plain' },
      { origin: 'http://evil.example', ...json },
    ]) {
      const answer = await sendOversized(resumeUrl(resumable.inspector), {
        headers,
        total: TOTAL,
        chunked: true,
      });
      expect(answer.finished).toBe(false);
      expect([415, 403]).toContain(answer.status);
    }
  });

  it('takes a limit of its own (maxBodyBytes), counted in bytes, and refuses a bad one', async () => {
    const small = await startInspector({
      store: resumable.store,
      engine: resumable.engine,
      allowResume: true,
      maxBodyBytes: 16,
    });
    try {
      // 17 bytes of which 2 characters take 3 bytes each: over a 16-byte limit.
      const body = '{"input":"€€"}'.padEnd(15, ' ');
      expect(Buffer.byteLength(body)).toBeGreaterThan(16);
      const counted = await rawRequest(resumeUrl(small), { method: 'POST', headers: json, body });
      expect(counted.status).toBe(413);
      const chunked = await sendOversized(resumeUrl(small), {
        headers: json,
        total: 17,
        chunked: true,
        chunkSize: 1,
      });
      expect(chunked.status).toBe(413);
    } finally {
      await small.close();
    }
    for (const maxBodyBytes of [0, -1, 1.5, Number.NaN, 2 ** 40])
      await expect(startInspector({ store: resumable.store, maxBodyBytes })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        argument: 'maxBodyBytes',
      });
  });

  it('within the limit is read and the thread resumed', async () => {
    const finished = resumable.whenFinished('pay-1');
    const padded = `{"input":true}${' '.repeat(60 * 1024)}`;
    const accepted = await rawRequest(resumeUrl(resumable.inspector), {
      method: 'POST',
      headers: json,
      body: padded,
    });
    expect(accepted.status).toBe(202);
    expect(await finished).toBe('COMPLETED');
    expect(resumable.charges()).toBe(1);
  });
});
