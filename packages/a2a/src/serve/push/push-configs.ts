import { randomUUID } from 'node:crypto';
import type { TaskPushNotificationConfig } from '@a2a-js/sdk';
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import type { PushNotificationStore, ServerCallContext } from '@a2a-js/sdk/server';
import { malformed } from '../a2a-errors.js';
import { type AllowPushUrl, checkPushUrl } from './url-policy.js';

const MAX_ID = 256;
const MAX_HEADER_VALUE = 4096;
// What an HTTP header value may hold (RFC 9110 field-value, ASCII only): a token or credentials
// with a line break would otherwise fail every POST, or add headers of the caller's choosing.
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;
const AUTH_SCHEME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function headerValue(value: string, field: string): void {
  if (value.length > MAX_HEADER_VALUE || !HEADER_VALUE.test(value))
    throw malformed(
      `${field} must be at most ${MAX_HEADER_VALUE} printable ASCII characters (it is sent as a header)`,
    );
}

/**
 * A task's push notification configs in the store (the SDK's `PushNotificationStore`, scoped by
 * the caller as the SDK's stores are), checked before they are kept. The handler has already
 * found the task for the caller: a task of another caller never gets this far.
 */
export class PushConfigs {
  readonly #store: PushNotificationStore;
  readonly #allow: AllowPushUrl | undefined;

  constructor(store: PushNotificationStore, allow: AllowPushUrl | undefined) {
    this.#store = store;
    this.#allow = allow;
  }

  /**
   * Keeps `config` for task `taskId` (replacing the task's config of the same id), once checked:
   * one refused (InvalidParams, naming the field after `prefix`) changes nothing. It is given an
   * id when it came without one; returns it as kept.
   */
  async create(
    config: TaskPushNotificationConfig,
    taskId: string,
    context: ServerCallContext,
    prefix = '',
  ): Promise<TaskPushNotificationConfig> {
    const checked = await this.#checked(config, taskId, prefix);
    await this.#store.save(taskId, context, structuredClone(checked));
    return checked;
  }

  async #checked(
    config: TaskPushNotificationConfig,
    taskId: string,
    prefix: string,
  ): Promise<TaskPushNotificationConfig> {
    await checkPushUrl(config.url, `${prefix}url`, this.#allow);
    if (config.id.length > MAX_ID) throw malformed(`${prefix}id must be 1 to ${MAX_ID} characters`);
    headerValue(config.token, `${prefix}token`);
    const auth = config.authentication;
    if (auth && (auth.scheme !== '' || auth.credentials !== '')) {
      if (!AUTH_SCHEME.test(auth.scheme))
        throw malformed(`${prefix}authentication.scheme must be an HTTP scheme such as Bearer`);
      if (auth.credentials === '')
        throw malformed(`${prefix}authentication.credentials is missing`);
      headerValue(auth.credentials, `${prefix}authentication.credentials`);
    }
    return {
      tenant: config.tenant,
      id: config.id === '' ? randomUUID() : config.id,
      taskId,
      url: config.url,
      token: config.token,
      authentication:
        auth && auth.scheme !== ''
          ? { scheme: auth.scheme, credentials: auth.credentials }
          : undefined,
    };
  }

  async list(taskId: string, context: ServerCallContext): Promise<TaskPushNotificationConfig[]> {
    return this.#store.load(taskId, context);
  }

  async get(
    taskId: string,
    id: string,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    const config = (await this.list(taskId, context)).find((c) => c.id === id);
    // Not found, as the SDK's handler answers it.
    if (!config)
      throw new TaskNotFoundError(
        `No push notification config ${JSON.stringify(id)} for task ${taskId}`,
      );
    return config;
  }

  /** Deletes a config; one that does not exist is already deleted. */
  async delete(taskId: string, id: string, context: ServerCallContext): Promise<void> {
    if (id === '') throw malformed('id is missing: the config to delete');
    await this.#store.delete(taskId, context, id);
  }
}
