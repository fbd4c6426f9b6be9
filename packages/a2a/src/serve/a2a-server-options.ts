import type { Authorize } from '@skein/http';
import { allowedOrigins, checkAuthorize } from '@skein/http';
import { InvalidArgumentError } from '@skein/spec';
import { type A2ACardOptions, checkCardOptions } from './agent-card.js';
import { DEFAULT_FOLLOW_INTERVAL_MS, type FollowSchedule, followSchedule } from './follow-task.js';
import {
  type A2APushNotificationOptions,
  type ResolvedPushOptions,
  resolvePushOptions,
} from './push/push-options.js';

export interface A2AServerOptions {
  /** What the agent card says of the agent. */
  readonly card: A2ACardOptions;
  /** The workflow each task runs a turn of (default `chat`, see `chatWorkflow`). */
  readonly workflowId?: string;
  /** The JSON-RPC endpoint's path (default `/a2a`); the card is at `/.well-known/agent-card.json`. */
  readonly path?: string;
  /**
   * The endpoint's public URL, as the card gives it to clients (default: the scheme, Host and
   * path a request for the card came by — right for 127.0.0.1; name it behind a proxy).
   */
  readonly url?: string;
  /** The largest request body read, in bytes (default 4,194,304; files ride in bodies). */
  readonly maxBodyBytes?: number;
  /** `Host` values to answer besides the loopback names (each `name:port`). */
  readonly allowedHosts?: readonly string[];
  /** Origins whose pages may call this agent besides its own. */
  readonly allowedOrigins?: readonly string[];
  /**
   * Names the caller of each JSON-RPC request, or refuses it (401): see `Authorize` in
   * `@skein/http`. The tasks a caller starts are the caller's, and only the caller's.
   */
  readonly authorize?: Authorize;
  /**
   * Sends push notifications of tasks' changes of state to the URLs callers register (the card
   * says `pushNotifications: true`); without it the push methods answer
   * `PushNotificationNotSupportedError`. See the README's "Push notifications".
   */
  readonly pushNotifications?: A2APushNotificationOptions;
  /**
   * How often, in ms, `SubscribeToTask` reads a task it follows from the store (default 1000):
   * what a subscriber hears of a turn this process does not run itself (another process of the
   * agent, a woken wait, the app's own `send`) comes within about that long. While nothing
   * changes the reads grow half as long again each time, up to five times this.
   */
  readonly followIntervalMs?: number;
}

export interface ResolvedA2AOptions {
  readonly card: A2ACardOptions;
  readonly workflowId: string;
  readonly path: string;
  readonly url: string | undefined;
  readonly maxBodyBytes: number;
  readonly allowedHosts: readonly string[];
  readonly allowedOrigins: ReadonlySet<string> | undefined;
  readonly authorize: Authorize | undefined;
  readonly pushNotifications: ResolvedPushOptions | undefined;
  readonly follow: FollowSchedule;
}

const DEFAULT_BODY = 4 * 1024 * 1024;
const MAX_BODY = 64 * 1024 * 1024;
// Five times it (the longest wait) must still fit a timer: 2^31 - 1 ms.
const MAX_FOLLOW_INTERVAL = Math.floor((2 ** 31 - 1) / 5);

export function resolveA2AOptions(options: A2AServerOptions): ResolvedA2AOptions {
  if (typeof options !== 'object' || options === null)
    throw new InvalidArgumentError('options', 'options must be an object { card, … }');
  const path = options.path ?? '/a2a';
  if (typeof path !== 'string' || !path.startsWith('/') || path === '/.well-known/agent-card.json')
    throw new InvalidArgumentError('path', 'path must start with / and not be the card’s');
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_BODY;
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1 || maxBodyBytes > MAX_BODY)
    throw new InvalidArgumentError(
      'maxBodyBytes',
      `maxBodyBytes must be an integer from 1 to ${MAX_BODY}, got ${String(maxBodyBytes)}`,
    );
  if (options.url !== undefined && !/^https?:\/\//.test(options.url))
    throw new InvalidArgumentError('url', 'url must be an http(s) URL');
  const followIntervalMs = options.followIntervalMs ?? DEFAULT_FOLLOW_INTERVAL_MS;
  if (
    !Number.isInteger(followIntervalMs) ||
    followIntervalMs < 1 ||
    followIntervalMs > MAX_FOLLOW_INTERVAL
  )
    throw new InvalidArgumentError(
      'followIntervalMs',
      `followIntervalMs must be an integer from 1 to ${MAX_FOLLOW_INTERVAL}, got ${String(followIntervalMs)}`,
    );
  const workflowId = options.workflowId ?? 'chat';
  if (typeof workflowId !== 'string' || workflowId === '')
    throw new InvalidArgumentError('workflowId', 'workflowId must be a non-empty string');
  // An extended card is for a caller the server knows: without `authorize` there is none.
  if (options.card?.extended !== undefined && options.authorize === undefined)
    throw new InvalidArgumentError(
      'card.extended',
      'card.extended needs authorize: the extended card is for the callers it names',
    );
  return {
    card: checkCardOptions(options.card),
    workflowId,
    path,
    url: options.url,
    maxBodyBytes,
    allowedHosts: [...(options.allowedHosts ?? [])],
    allowedOrigins: options.allowedOrigins ? allowedOrigins(options.allowedOrigins) : undefined,
    authorize: checkAuthorize(options.authorize),
    pushNotifications: resolvePushOptions(options.pushNotifications),
    follow: followSchedule(followIntervalMs),
  };
}
