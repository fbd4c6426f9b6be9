/**
 * Waits for a shutdown for at most `graceMs`: 'stopped' once `stopping` resolves, 'timed-out'
 * if it has not by then (it is left running: the caller exits anyway). Rejects as `stopping` does.
 *
 * The timer is kept referenced on purpose: a shutdown that waits on promises alone (a cancelled
 * model call, a module's `close`) holds nothing that keeps Node running, and Node would end the
 * process, with exit code 0, in the middle of it.
 */
export async function stopWithin(
  stopping: Promise<void>,
  graceMs: number,
): Promise<'stopped' | 'timed-out'> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timed-out'>((resolve) => {
    timer = setTimeout(() => resolve('timed-out'), graceMs);
  });
  try {
    return await Promise.race([stopping.then(() => 'stopped' as const), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
