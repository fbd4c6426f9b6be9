/**
 * The longest delay `setTimeout` takes (2^31 - 1 ms, about 24.8 days). Node fires a longer one
 * after 1 ms, with a TimeoutOverflowWarning: a loop waiting for it would spin.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Waits `ms` (a wait longer than one timer holds is waited in timer-sized pieces; anything not a
 * positive number is no wait), or rejects with the signal's reason when it aborts first.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    let left = Number.isNaN(ms) ? 0 : Math.max(ms, 0);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const next = (): void => {
      if (left <= 0) {
        signal?.removeEventListener('abort', onAbort);
        resolve();
        return;
      }
      const step = Math.min(left, MAX_TIMER_MS);
      left -= step;
      timer = setTimeout(next, step);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const first = Math.min(left, MAX_TIMER_MS);
    left -= first;
    timer = setTimeout(next, first);
  });
}
