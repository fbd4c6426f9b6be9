function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('aborted');
}

/** The first aborted signal's reason, if one is aborted. */
export function abortedBy(signals: readonly AbortSignal[]): { reason: unknown } | undefined {
  const signal = signals.find((s) => s.aborted);
  return signal && { reason: abortReason(signal) };
}

/**
 * Waits `ms`, or rejects with the reason of the first signal to abort. (Not `AbortSignal.any`:
 * it needs Node 20.3, and the package supports every Node 20.)
 */
export function sleep(ms: number, signals: readonly AbortSignal[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const already = abortedBy(signals);
    if (already) return reject(already.reason);
    const stop = (): void => {
      for (const signal of signals) signal.removeEventListener('abort', onAbort);
    };
    const onAbort = (): void => {
      clearTimeout(timer);
      stop();
      reject(abortedBy(signals)?.reason);
    };
    const timer = setTimeout(() => {
      stop();
      resolve();
    }, ms);
    for (const signal of signals) signal.addEventListener('abort', onAbort, { once: true });
  });
}
