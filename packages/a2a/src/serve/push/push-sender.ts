import { A2A_CONTENT_TYPE, type TaskPushNotificationConfig } from '@a2a-js/sdk';
import { A2APushError } from './push-error.js';
import { type RetrySchedule, retryAfterMs, retryDelay } from './retry-schedule.js';

/** The header the SDK's `DefaultPushNotificationSender` carries a config's token in. */
const NOTIFICATION_TOKEN_HEADER = 'X-A2A-Notification-Token';

export interface PushSenderOptions {
  readonly schedule: RetrySchedule;
  /** The fetch POSTs are made with (default: the global one, read at each POST). */
  readonly fetch?: typeof fetch | undefined;
}

/**
 * The headers of a push to `config`: the body's type, the config's token in the SDK's header
 * (so the receiver knows the notification is for the config it registered) and, when the
 * config carries authentication, `Authorization: <scheme> <credentials>`.
 */
function pushHeaders(config: TaskPushNotificationConfig): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': A2A_CONTENT_TYPE };
  if (config.token !== '') headers[NOTIFICATION_TOKEN_HEADER] = config.token;
  const auth = config.authentication;
  if (auth?.scheme && auth.credentials)
    headers.authorization = `${auth.scheme} ${auth.credentials}`;
  return headers;
}

/** Whether a receiver's status means "try again later" rather than "no". */
function isRetryable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * Waits on the global `setTimeout` as it is at the call (so fake timers drive it in tests),
 * unref'd: a retry that waits does not keep a process alive that has nothing else to do.
 */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    (timer as { unref?: () => void }).unref?.();
  });
}

type Attempt =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly retry: boolean;
      readonly status?: number;
      readonly wait?: number;
      readonly problem: string;
      readonly cause?: unknown;
    };

async function post(
  config: TaskPushNotificationConfig,
  body: string,
  options: PushSenderOptions,
): Promise<Attempt> {
  const send = options.fetch ?? globalThis.fetch;
  try {
    const response = await send(config.url, {
      method: 'POST',
      headers: pushHeaders(config),
      body,
      // A redirect could lead the POST to an address the URL policy refused: not followed.
      redirect: 'manual',
      signal: AbortSignal.timeout(options.schedule.timeoutMs),
    });
    // Read to the end, so the connection can be kept alive for the next push.
    await response.arrayBuffer().catch(() => undefined);
    if (response.status >= 200 && response.status < 300) return { ok: true };
    const wait = retryAfterMs(response.headers.get('retry-after'), Date.now());
    return {
      ok: false,
      retry: isRetryable(response.status),
      status: response.status,
      problem: `the receiver answered ${response.status}`,
      ...(wait === undefined ? {} : { wait }),
    };
  } catch (error) {
    // Unreachable, reset, or no answer within timeoutMs: it may pass.
    const cause = (error as { cause?: unknown }).cause;
    const reason = cause instanceof Error ? cause.message : String(error);
    return { ok: false, retry: true, problem: `no answer (${reason})`, cause: error };
  }
}

/**
 * POSTs `body` to `config.url` until the receiver takes it (a 2xx), retrying failures that may
 * pass (network errors, timeouts, 408, 429, 5xx) with exponential backoff; throws A2APushError
 * once it is refused (another status) or the attempts are spent.
 */
export async function deliverPush(
  taskId: string,
  config: TaskPushNotificationConfig,
  body: string,
  options: PushSenderOptions,
): Promise<void> {
  const { schedule } = options;
  for (let attempt = 1; ; attempt++) {
    const outcome = await post(config, body, options);
    if (outcome.ok) return;
    if (!outcome.retry || attempt >= schedule.attempts) {
      const facts = { taskId, configId: config.id, url: config.url, attempts: attempt };
      throw new A2APushError(
        outcome.status === undefined ? facts : { ...facts, httpStatus: outcome.status },
        outcome.retry
          ? `${outcome.problem}, and ${attempt} ${attempt === 1 ? 'try' : 'tries'} failed`
          : `${outcome.problem}, not retried`,
        { cause: outcome.cause },
      );
    }
    await sleep(retryDelay(schedule, attempt, outcome.wait));
  }
}
