import type { SkeinEngine } from '@skein/core';
import type { FollowSchedule } from './follow-task.js';
import type { PushNotifications } from './push/push-notifications.js';
import type { TaskRuns } from './task-runs.js';

/**
 * What the parts of the request handler share, made once per handler: each request reads its
 * tasks through the caller's view of `engine`, and only `runs` changes as requests come and go.
 */
export interface ServedAgent {
  readonly engine: SkeinEngine;
  /** The workflow each task runs a turn of: threads of other workflows are no tasks. */
  readonly workflowId: string;
  /** Runs this handler started, by task: what `cancelTask` aborts. */
  readonly runs: TaskRuns;
  /** Push notifications, when the server sends them (decision 0039). */
  readonly push: PushNotifications | undefined;
  /** How often a followed task is read from the store (`followIntervalMs`). */
  readonly schedule: FollowSchedule;
}
