import { type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TaskFollow } from './follow-task.js';
import { statusUpdate } from './stream-responses.js';

const { TASK_STATE_SUBMITTED: SUBMITTED, TASK_STATE_WORKING: WORKING } = TaskState;
const { TASK_STATE_COMPLETED: COMPLETED, TASK_STATE_INPUT_REQUIRED: INPUT_REQUIRED } = TaskState;

const ids = { contextId: 'c', taskId: 'c~t' };

const task = (state: TaskState): Task => ({
  id: ids.taskId,
  contextId: ids.contextId,
  status: { state, message: undefined, timestamp: undefined },
  artifacts: [],
  history: [],
  metadata: undefined,
});

/** An event as a word: the kind of response, and the state it says. */
const word = ({ payload }: StreamResponse) =>
  payload?.$case === 'statusUpdate' || payload?.$case === 'task'
    ? `${payload.$case}:${TaskState[payload.value.status!.state]}`
    : payload?.$case;

/** A follow over a store that reads as `stored()` says, with what it sent and how it ended. */
function follow(stored: () => TaskState, intervalMs = 100) {
  const sent: StreamResponse[] = [];
  let ended = false;
  let reads = 0;
  const follower = new TaskFollow(
    ids,
    {
      read: async () => {
        reads++;
        return task(stored());
      },
      send: (response) => sent.push(response),
      end: () => {
        ended = true;
      },
      fail: (error) => {
        throw error;
      },
    },
    { intervalMs, maxIntervalMs: intervalMs * 5 },
  );
  return {
    follower,
    words: () => sent.map(word),
    ended: () => ended,
    reads: () => reads,
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('following a task in the store', () => {
  it('reads it on a timer that backs off, sends each new state once, and ends with its stop', async () => {
    vi.useFakeTimers();
    let state = SUBMITTED;
    const { follower, words, ended, reads } = follow(() => state);
    follower.begin(task(SUBMITTED));
    expect(vi.getTimerCount()).toBe(1);
    // Nothing changes: reads at 100, then 150, 225, … ms apart, and nothing is sent.
    await vi.advanceTimersByTimeAsync(100);
    expect(reads()).toBe(1);
    await vi.advanceTimersByTimeAsync(149);
    expect(reads()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(reads()).toBe(2);
    expect(words()).toEqual([]);

    // Another process starts its turn: one status update, however often it is read.
    state = WORKING;
    await vi.advanceTimersByTimeAsync(2_000);
    expect(words()).toEqual(['statusUpdate:TASK_STATE_WORKING']);
    // The waits grew to at most five times the first.
    const before = reads();
    await vi.advanceTimersByTimeAsync(500);
    expect(reads()).toBe(before + 1);

    state = COMPLETED;
    await vi.advanceTimersByTimeAsync(500);
    expect(words()).toEqual([
      'statusUpdate:TASK_STATE_WORKING',
      'statusUpdate:TASK_STATE_COMPLETED',
    ]);
    expect(ended()).toBe(true);
    // No timer is left: the follow stopped itself.
    expect(vi.getTimerCount()).toBe(0);
    const last = reads();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(reads()).toBe(last);
  });

  it('sends what this process hears at once, but not the same state again without a message', async () => {
    vi.useFakeTimers();
    let state = SUBMITTED;
    const { follower, words } = follow(() => state);
    follower.begin(task(SUBMITTED));
    follower.heard(statusUpdate(ids, WORKING, undefined));
    follower.heard(statusUpdate(ids, WORKING, undefined));
    expect(words()).toEqual(['statusUpdate:TASK_STATE_WORKING']);
    // The store shows it too: not sent again.
    state = WORKING;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(words()).toEqual(['statusUpdate:TASK_STATE_WORKING']);
    follower.stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('drops a read begun before an event this process heard: the task does not go back in time', async () => {
    vi.useFakeTimers();
    let release: () => void = () => {};
    const sent: StreamResponse[] = [];
    const follower = new TaskFollow(
      ids,
      {
        // The read is slow: it began while the task was submitted, and ends after it started.
        read: () =>
          new Promise<Task>((resolve) => {
            release = () => resolve(task(SUBMITTED));
          }),
        send: (response) => sent.push(response),
        end: () => {},
        fail: () => {},
      },
      { intervalMs: 100, maxIntervalMs: 500 },
    );
    follower.begin(task(SUBMITTED));
    await vi.advanceTimersByTimeAsync(100);
    follower.heard(statusUpdate(ids, WORKING, undefined));
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.map(word)).toEqual(['statusUpdate:TASK_STATE_WORKING']);
    follower.stop();
  });

  it('check reads at once: a pause for input ends the stream without waiting for the timer', async () => {
    vi.useFakeTimers();
    let state = WORKING;
    const { follower, words, ended } = follow(() => state, 10_000);
    follower.begin(task(WORKING));
    state = INPUT_REQUIRED;
    follower.check();
    await vi.advanceTimersByTimeAsync(0);
    expect(words()).toEqual(['statusUpdate:TASK_STATE_INPUT_REQUIRED']);
    expect(ended()).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});
