import type { SendMessageRequest } from '@a2a-js/sdk';
import { PushNotificationNotSupportedError } from '@a2a-js/sdk/errors';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { principalOf, viewFor } from './caller.js';
import { findTask } from './find-task.js';
import type { PushConfigs } from './push/push-configs.js';
import type { ServedAgent } from './served-agent.js';

/** Where a push config sent with a message is, for the errors that name its fields. */
const SENT_CONFIG = 'configuration.taskPushNotificationConfig.';

/** A task's push configs, once the task is found as the caller's (GetTask's rules). */
export async function configsOf(
  served: ServedAgent,
  taskId: string,
  context: ServerCallContext,
): Promise<PushConfigs> {
  if (!served.push) throw noPush();
  await findTask(served, viewFor(served.engine, principalOf(context)), taskId);
  return served.push.configs;
}

/** A push config sent with a message, kept for its task before the message goes on. */
export async function keepPushConfig(
  served: ServedAgent,
  params: SendMessageRequest,
  taskId: string,
  context: ServerCallContext,
): Promise<void> {
  const config = params.configuration?.taskPushNotificationConfig;
  // Without push notifications it is ignored, as the SDK's handler does.
  if (config && served.push) await served.push.configs.create(config, taskId, context, SENT_CONFIG);
}

function noPush(): Error {
  return new PushNotificationNotSupportedError('This agent sends no push notifications');
}
