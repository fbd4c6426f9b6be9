import { InMemoryPushNotificationStore, type PushNotificationStore } from '@a2a-js/sdk/server';
import { InvalidArgumentError } from '@skein/spec';
import type { A2APushError } from './push-error.js';
import { type A2APushRetryOptions, type RetrySchedule, retrySchedule } from './retry-schedule.js';
import type { AllowPushUrl } from './url-policy.js';

/** Option `pushNotifications` of the server: given, the agent sends push notifications. */
export interface A2APushNotificationOptions {
  /**
   * Where the configs are kept (default: in memory, in this process). The SDK's interface, so a
   * durable store of the SDK's or the app's own fits; it is scoped by caller as the SDK's are.
   */
  readonly store?: PushNotificationStore;
  /**
   * Decides which URLs the agent may POST to, instead of the default policy (`https:` to a host
   * that is not `localhost` nor a loopback, private, link-local or unique-local address). A URL
   * that is not http(s), or carries credentials, is refused whatever it says.
   */
  readonly allowUrl?: AllowPushUrl;
  /** How a failed POST is tried again (default: 5 tries, waits of 1, 2, 4 and 8 s). */
  readonly retry?: A2APushRetryOptions;
  /** The fetch POSTs are made with (default: the global one). */
  readonly fetch?: typeof fetch;
  /**
   * Hears each push notification given up on (refused by the receiver, or failing until the
   * retries ran out). Default: a line on `console.warn`.
   */
  readonly onPushError?: (error: A2APushError) => void;
}

export interface ResolvedPushOptions {
  readonly store: PushNotificationStore;
  readonly allowUrl: AllowPushUrl | undefined;
  readonly schedule: RetrySchedule;
  readonly fetch: typeof fetch | undefined;
  readonly onPushError: (error: A2APushError) => void;
}

function fn<T>(value: T | undefined, name: string): T | undefined {
  if (value !== undefined && typeof value !== 'function')
    throw new InvalidArgumentError(`pushNotifications.${name}`, `${name} must be a function`);
  return value;
}

/** The option checked, defaults filled in; undefined (no push notifications) when not given. */
export function resolvePushOptions(
  options: A2APushNotificationOptions | undefined,
): ResolvedPushOptions | undefined {
  if (options === undefined) return undefined;
  if (typeof options !== 'object' || options === null)
    throw new InvalidArgumentError(
      'pushNotifications',
      'pushNotifications must be an object ({} for the defaults)',
    );
  const { store } = options;
  if (
    store !== undefined &&
    (typeof store?.save !== 'function' ||
      typeof store.load !== 'function' ||
      typeof store.delete !== 'function')
  )
    throw new InvalidArgumentError(
      'pushNotifications.store',
      'store must be a PushNotificationStore (save, load, delete)',
    );
  return {
    store: store ?? new InMemoryPushNotificationStore(),
    allowUrl: fn(options.allowUrl, 'allowUrl'),
    schedule: retrySchedule(options.retry),
    fetch: fn(options.fetch, 'fetch'),
    onPushError:
      fn(options.onPushError, 'onPushError') ??
      ((error) => console.warn(`@skein/a2a: ${error.message}`)),
  };
}
