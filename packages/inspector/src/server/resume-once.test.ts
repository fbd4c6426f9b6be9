import type { CheckpointStore } from '@skein/core';
import { InMemoryCheckpointStore } from '@skein/core';
import { afterEach, describe, expect, it } from 'vitest';
import { withLoadBarrier } from '../test-support/load-barrier.js';
import { rawRequest } from '../test-support/raw-request.js';
import {
  type ResumableInspector,
  startResumableInspector,
} from '../test-support/resumable-inspector.js';
import { tempStore } from '../test-support/temp-store.js';

let subject: ResumableInspector | undefined;
let temp: ReturnType<typeof tempStore> | undefined;

afterEach(async () => {
  await subject?.dispose();
  temp?.dispose();
  subject = undefined;
  temp = undefined;
});

function resume(threadId: string) {
  return rawRequest(new URL(`/api/threads/${threadId}/resume`, subject!.inspector.url).href, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"input":true}',
  });
}

const STORES: readonly [string, () => CheckpointStore][] = [
  [
    'SQLite',
    () => {
      temp = tempStore();
      return temp.store;
    },
  ],
  ['in-memory', () => new InMemoryCheckpointStore()],
];

describe('two simultaneous resumes of one pause over HTTP', () => {
  it.each(STORES)(
    'on a %s store: one 202, one 409 RESUME_CONFLICT, and the tool runs once',
    async (_, makeStore) => {
      const barrier = withLoadBarrier(makeStore());
      subject = await startResumableInspector({ store: barrier.store });
      await subject.pausedPayment('pay-1');
      const finished = subject.whenFinished('pay-1');
      // Both requests read the thread while it is still PAUSED: only the claim can tell them apart.
      barrier.arm(2);
      const answers = await Promise.all([resume('pay-1'), resume('pay-1')]);
      expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
      const conflict = JSON.parse(answers.find((a) => a.status === 409)!.body);
      expect(conflict.error).toEqual({ code: 'RESUME_CONFLICT', message: expect.any(String) });
      const accepted = JSON.parse(answers.find((a) => a.status === 202)!.body);
      expect(accepted).toMatchObject({ accepted: true, threadId: 'pay-1' });
      expect(await finished).toBe('COMPLETED');
      expect(subject.charges()).toBe(1);
      // Once the run is over, another answer finds nothing to answer.
      const late = await resume('pay-1');
      expect(late.status).toBe(409);
      expect(JSON.parse(late.body).error.code).toBe('THREAD_NOT_PAUSED');
    },
  );
});
